; Definitions in Dart. The grammar puts a function's body beside its signature, not in it: the
; function_body sibling is added to the span (GrammarSpec.trailing_body), and @annotations above are
; added by the parser. Mixins and extensions are classes; a named constructor `A.named` is named `named`;
; an operator is named by its symbol (`V.+`, `V.==`; `[]` and `~` have no node to name them and stay in the class).

(class_definition name: (identifier) @name) @definition.class
(mixin_declaration (identifier) @name) @definition.class
(extension_declaration name: (identifier) @name) @definition.class
(extension_type_declaration name: (identifier) @name) @definition.class
(enum_declaration name: (identifier) @name) @definition.enum
(type_alias . (type_identifier) @name) @definition.type

(method_signature (function_signature name: (identifier) @name)) @definition.function
(method_signature (getter_signature name: (identifier) @name)) @definition.function
(method_signature (setter_signature name: (identifier) @name)) @definition.function
(method_signature (operator_signature (binary_operator) @name)) @definition.function
(method_signature (factory_constructor_signature (identifier) @name . (formal_parameter_list))) @definition.function
(method_signature (constructor_signature name: (identifier) @name . parameters: (_))) @definition.function
(declaration (function_signature name: (identifier) @name)) @definition.function
(declaration (getter_signature name: (identifier) @name)) @definition.function
(declaration (setter_signature name: (identifier) @name)) @definition.function
(declaration (constructor_signature name: (identifier) @name . parameters: (_))) @definition.function
(declaration (factory_constructor_signature (identifier) @name . (formal_parameter_list))) @definition.function
(program (function_signature name: (identifier) @name) @definition.function)
(program (getter_signature name: (identifier) @name) @definition.function)
