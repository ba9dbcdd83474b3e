; Definitions in Kotlin. Interfaces and enums are class_declarations told apart by a keyword or modifier;
; an `object` (and a named companion object) is a class. Functions in a class body become methods by
; nesting; an unnamed companion object is not a span, so its functions are methods of the class.
; An extension function `fun Order.stamp()` is qualified by its receiver type: Order.stamp.

(class_declaration "interface" name: (identifier) @name) @definition.interface
(class_declaration (modifiers (class_modifier "enum")) name: (identifier) @name) @definition.enum
(class_declaration name: (identifier) @name) @definition.class
(object_declaration name: (identifier) @name) @definition.class
(companion_object name: (identifier) @name) @definition.class
(type_alias type: (identifier) @name) @definition.type

(function_declaration (user_type . (identifier) @scope) . name: (identifier) @name) @definition.function
(function_declaration name: (identifier) @name) @definition.function
(secondary_constructor "constructor" @name) @definition.function

; A top-level property made by a call given a function body (ktor's plugins: `public val SSE: ClientPlugin<SSEConfig>
; = createClientPlugin("SSE", ::SSEConfig) { ... }`) is a definition of what it does.
(source_file
  (property_declaration
    (variable_declaration (identifier) @name)
    (call_expression (annotated_lambda (lambda_literal (_))))) @definition.function)
