; Definitions in Perl: subroutines, and a package written as a block (`package Foo { ... }`), whose subroutines
; are its methods. A `package Foo;` statement is no container: the subroutines after it keep their own names.

(subroutine_declaration_statement name: (bareword) @name) @definition.function
(package_statement name: (package) @name (block)) @definition.class
