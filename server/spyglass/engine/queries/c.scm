; Definitions in C: functions (also returning pointers), and structs, unions and enums with a body.
; `typedef struct {...} name;` is named by the typedef.

(function_definition
  declarator: (function_declarator declarator: (identifier) @name)) @definition.function
(function_definition
  declarator: (pointer_declarator
    declarator: (function_declarator declarator: (identifier) @name))) @definition.function
(function_definition
  declarator: (pointer_declarator
    declarator: (pointer_declarator
      declarator: (function_declarator declarator: (identifier) @name)))) @definition.function

(struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
(union_specifier name: (type_identifier) @name body: (_)) @definition.struct
(enum_specifier name: (type_identifier) @name body: (_)) @definition.enum

(type_definition
  type: [(struct_specifier body: (_)) (union_specifier body: (_))]
  declarator: (type_identifier) @name) @definition.struct
(type_definition
  type: (enum_specifier body: (_))
  declarator: (type_identifier) @name) @definition.enum

; A function-like macro: the preprocessor's functions, and in C and C++ much of an API (ABSL_LOG, Py_INCREF).
(preproc_function_def name: (identifier) @name) @definition.function
