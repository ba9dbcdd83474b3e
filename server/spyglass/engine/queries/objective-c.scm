; Definitions in Objective-C: classes (@interface and @implementation, a category's too, named after the class,
; so that its methods are the class's), protocols, methods (named by their selector's first keyword:
; `- (instancetype)initWithBaseURL:(NSURL *)url sessionConfiguration:...` is `initWithBaseURL`); C's functions,
; types and macros are c.scm's (the grammar's `extra_query`). A method declared in an @interface or @protocol has
; no body: a declaration (declarations.py).

(class_interface . (identifier) @name) @definition.class
(class_implementation . (identifier) @name) @definition.class
(protocol_declaration . (identifier) @name) @definition.interface

(method_definition (method_type) . (identifier) @name) @definition.function
(method_declaration (method_type) . (identifier) @name) @definition.function
