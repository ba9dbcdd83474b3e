; Definitions in SystemVerilog and Verilog (one grammar reads both). A module, a program and a checker are
; classes (a design unit with ports, instantiated like an object, not a namespace: the kind `module` is a file's
; own span here), an interface is an interface, so the functions and tasks they hold are their methods
; (`uart_tx.load`); a package is a module, so what it holds is qualified by it (`ibex_pkg.opcode_e`). A class is
; a class and an interface class an interface. A function and a task are functions, a constructor is named `new`,
; and one defined outside its class (`function void driver::build();`) is a method qualified by the class, as
; C++'s is. A prototype (`extern function ...;`, `pure virtual task ...;`) and a DPI import (`import "DPI-C"
; function ...;`) are functions without a body. A typedef of an enum or of a struct/union with its members is an
; enum or a struct, named by the typedef. Instances, nets, variables, parameters, always and generate blocks are
; not definitions; nor are modports, covergroups, properties and sequences (named only where they are used).

(module_declaration [(module_ansi_header name: (_) @name) (module_nonansi_header name: (_) @name)]) @definition.class
(interface_declaration
  [(interface_ansi_header name: (_) @name) (interface_nonansi_header name: (_) @name)]) @definition.interface
(program_declaration
  [(program_ansi_header name: (_) @name) (program_nonansi_header name: (_) @name)]) @definition.class
(package_declaration name: (_) @name) @definition.module
(checker_declaration name: (_) @name) @definition.class

(class_declaration name: (_) @name) @definition.class
(interface_class_declaration name: (_) @name) @definition.interface

(function_declaration (function_body_declaration (class_scope (class_type (simple_identifier) @scope))
  name: (_) @name)) @definition.method
(function_declaration (function_body_declaration name: (_) @name)) @definition.function
(task_declaration (task_body_declaration (class_scope (class_type (simple_identifier) @scope))
  name: (_) @name)) @definition.method
(task_declaration (task_body_declaration name: (_) @name)) @definition.function
(class_constructor_declaration (class_scope (class_type (simple_identifier) @scope)) "new" @name) @definition.method
(class_constructor_declaration "new" @name) @definition.function

(class_method [(function_prototype name: (_) @name) (task_prototype name: (_) @name)]) @definition.function
(class_method (class_constructor_prototype "new" @name)) @definition.function
(interface_class_method [(function_prototype name: (_) @name) (task_prototype name: (_) @name)]) @definition.function
(dpi_import_export
  [(dpi_function_proto (function_prototype name: (_) @name)) (dpi_task_proto (task_prototype name: (_) @name))])
  @definition.function

(type_declaration (data_type "enum") type_name: (_) @name) @definition.enum
(type_declaration (data_type (struct_union)) type_name: (_) @name) @definition.struct
