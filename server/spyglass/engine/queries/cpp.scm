; Definitions in C++. An out-of-class member definition `T Cls::name(...) {}` captures Cls as @scope
; (qualname Cls.name). Templates wrap their declaration; the outermost node wins.

(function_definition
  declarator: (function_declarator
    declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)
  (#not-match? @name "^(TEST|TEST_F|TEST_P|TYPED_TEST|TYPED_TEST_P)$")) @definition.function
; a GoogleTest test, `TEST_F(StrCatTest, Ints) {...}`, is named after its suite and its test: StrCatTest.Ints
(function_definition
  declarator: (function_declarator
    declarator: (identifier) @_macro
    parameters: (parameter_list . (parameter_declaration) @scope . (parameter_declaration) @name .))
  (#match? @_macro "^(TEST|TEST_F|TEST_P|TYPED_TEST|TYPED_TEST_P)$")) @definition.function
(function_definition
  declarator: (function_declarator
    declarator: (qualified_identifier
      scope: (_) @scope
      name: [(identifier) (destructor_name) (operator_name)] @name))) @definition.method
(function_definition
  declarator: (pointer_declarator
    declarator: (function_declarator
      declarator: [(identifier) (field_identifier)] @name))) @definition.function
(function_definition
  declarator: (reference_declarator
    (function_declarator
      declarator: [(identifier) (field_identifier)] @name))) @definition.function
(function_definition
  declarator: (pointer_declarator
    declarator: (function_declarator
      declarator: (qualified_identifier scope: (_) @scope name: (identifier) @name)))) @definition.method
(function_definition
  declarator: (reference_declarator
    (function_declarator
      declarator: (qualified_identifier scope: (_) @scope name: (identifier) @name)))) @definition.method

(class_specifier name: (_) @name body: (_)) @definition.class
(struct_specifier name: (_) @name body: (_)) @definition.struct
(union_specifier name: (_) @name body: (_)) @definition.struct
(enum_specifier name: (_) @name body: (_)) @definition.enum
(namespace_definition name: (_) @name) @definition.module

(template_declaration (function_definition
  declarator: (function_declarator declarator: [(identifier) (field_identifier)] @name))) @definition.function
(template_declaration (class_specifier name: (_) @name body: (_))) @definition.class
(template_declaration (struct_specifier name: (_) @name body: (_))) @definition.struct

(type_definition
  type: [(struct_specifier body: (_)) (union_specifier body: (_))]
  declarator: (type_identifier) @name) @definition.struct

; A function-like macro: the preprocessor's functions, and in C and C++ much of an API (ABSL_LOG, Py_INCREF).
(preproc_function_def name: (identifier) @name) @definition.function
