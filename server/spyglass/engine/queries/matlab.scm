; Definitions in MATLAB. A `classdef` is a class: the functions of its `methods` blocks are its methods (C.m; a
; property accessor `function set.Name(obj, v)` is named by the property, C.Name), and so is a method only
; declared in one (`r = area(obj)` under `methods (Abstract)`, or one whose body is a file of the class's
; folder). A file's functions are functions: the first (the file's), its local functions after it, and a
; function nested in another (outer.inner). Properties, events and enumeration members are no spans.
; A definition's doc is MATLAB's help text: the comment block right after its `function` or `classdef` line
; (@doc); without one, the comment block right above it.

(class_definition
  name: (identifier) @name
  .
  (comment) @doc) @definition.class
(class_definition
  name: (identifier) @name
  (superclasses)
  .
  (comment) @doc) @definition.class
(class_definition name: (identifier) @name) @definition.class

(function_definition
  name: (identifier) @name
  .
  (comment) @doc) @definition.function
(function_definition
  name: (identifier) @name
  (function_arguments)
  .
  (comment) @doc) @definition.function
(function_definition name: (identifier) @name) @definition.function

(function_signature name: (identifier) @name) @definition.function
