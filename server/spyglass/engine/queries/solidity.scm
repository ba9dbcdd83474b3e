; Definitions in Solidity. Contracts and libraries are classes and interfaces are interfaces, so what they
; declare is qualified by them (`Vault.deposit`, `Math.max`). Functions, modifiers, constructors, fallback and
; receive functions are functions (methods in a container); structs, enums, user-defined value types
; (`type Price is uint256`), events and custom errors are types. State variables are not definitions here, nor
; are Yul functions inside `assembly { }` blocks (local to their function).

(contract_declaration name: (identifier) @name) @definition.class
(library_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface

(struct_declaration name: (identifier) @name) @definition.struct
(enum_declaration name: (identifier) @name) @definition.enum
(user_defined_type_definition name: (identifier) @name) @definition.type
; an event and an error are declarations without a body, named where they are emitted or reverted with
(event_definition name: (identifier) @name) @definition.type
(error_declaration name: (identifier) @name) @definition.type

(function_definition name: (identifier) @name) @definition.function
(modifier_definition name: (identifier) @name) @definition.function
; a constructor, fallback and receive function have no name: they are named by their keyword
(constructor_definition "constructor" @name) @definition.function
(fallback_receive_definition ["fallback" "receive"] @name) @definition.function
