; Definitions in Objective-C: classes (@interface and @implementation, a category's too, named after the class,
; so that its methods are the class's), protocols, methods (named by their selector's first keyword:
; `- (instancetype)initWithBaseURL:(NSURL *)url sessionConfiguration:...` is `initWithBaseURL`), and C's
; functions, structs, unions and enums. A method declared in an @interface or @protocol has no body: a
; declaration (declarations.py).

(class_interface . (identifier) @name) @definition.class
(class_implementation . (identifier) @name) @definition.class
(protocol_declaration . (identifier) @name) @definition.interface

(method_definition (method_type) . (identifier) @name) @definition.function
(method_declaration (method_type) . (identifier) @name) @definition.function

(function_definition
  declarator: (function_declarator declarator: (identifier) @name)) @definition.function
(function_definition
  declarator: (pointer_declarator
    declarator: (function_declarator declarator: (identifier) @name))) @definition.function

(struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
(union_specifier name: (type_identifier) @name body: (_)) @definition.struct
(enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
(type_definition
  type: [(struct_specifier body: (_)) (union_specifier body: (_))]
  declarator: (type_identifier) @name) @definition.struct
(type_definition
  type: (enum_specifier body: (_))
  declarator: (type_identifier) @name) @definition.enum

(preproc_function_def name: (identifier) @name) @definition.function
