; Definitions in Ruby. `def` inside a class becomes a method by nesting; `def self.x` is always one.

(method name: (_) @name) @definition.function
(singleton_method name: (_) @name) @definition.method
(class name: (_) @name) @definition.class
(singleton_class value: (_) @name) @definition.class
(module name: (_) @name) @definition.module
