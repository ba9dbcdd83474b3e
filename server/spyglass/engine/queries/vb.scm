; Definitions in VB.NET. A namespace and a module (`Module Helpers`, a static class) are modules; a class, a
; structure, an interface and an enum are what they say, so what they declare is qualified by them
; (`Basket.Total`). A `Sub` and a `Function` are functions (methods in a class), declared without a body in an
; interface; a property with accessors (`Get ... End Get`) is one too, an auto-property (`Public Property Name As
; String`) is a field, no definition. A delegate is a type. A type declared inside another is a block of its own,
; not a type_declaration. A constructor (`Sub New`) is a method named `New`: the grammar gives it no name node, so
; rewrites/vb.py makes it a method named `N_w` for the grammar. An operator has no name node, so it is in its
; class's span, no definition of its own; nor is a `Declare` statement, which the grammar does not read.

(namespace_block name: (namespace_name) @name) @definition.module
(type_declaration (module_block name: (identifier) @name)) @definition.module
(type_declaration (class_block name: (identifier) @name)) @definition.class
(type_declaration (structure_block name: (identifier) @name)) @definition.struct
(type_declaration (interface_block name: (identifier) @name)) @definition.interface
(type_declaration (enum_block name: (identifier) @name)) @definition.enum
(class_block name: (identifier) @name) @definition.class
(structure_block name: (identifier) @name) @definition.struct
(interface_block name: (identifier) @name) @definition.interface
(enum_block name: (identifier) @name) @definition.enum
(delegate_declaration name: (identifier) @name) @definition.type

(method_declaration name: (identifier) @name) @definition.function
(property_declaration name: (identifier) @name (get_accessor)) @definition.function
(property_declaration name: (identifier) @name (set_accessor)) @definition.function
