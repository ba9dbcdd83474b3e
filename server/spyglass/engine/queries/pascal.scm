; Definitions in Pascal (Delphi, Free Pascal). A class, an object and an interface type are classes and
; interfaces, a record a struct, an enumeration an enum, and a procedural type (`TProc = procedure(X: Integer) of
; object`) a type; what they declare in the `interface` section is qualified by them (`TBasket.Add`, a declaration
; without a body). A routine implemented in the `implementation` section (`procedure TBasket.Add(...)` ... `end;`)
; is a function named by its qualified name, so its qualname is `TBasket.Add` as the declaration's is; a routine
; nested in another is qualified by it. A forward declaration (`TFoo = class;`) is no definition, nor are other
; type aliases, constants and variables; the `unit` itself is the file's module span.

(declType name: [(identifier) @name (genericTpl entity: (identifier) @name)] type: (declClass (kRecord))) @definition.struct
; a forward declaration has neither an `end` nor a parent (`TFoo = class;`); `EFoo = class(Exception);` is a class
(declType name: [(identifier) @name (genericTpl entity: (identifier) @name)] type: (declClass (kEnd))) @definition.class
(declType name: [(identifier) @name (genericTpl entity: (identifier) @name)] type: (declClass parent: (_))) @definition.class
(declType name: [(identifier) @name (genericTpl entity: (identifier) @name)] type: (declIntf (kEnd))) @definition.interface
(declType name: [(identifier) @name (genericTpl entity: (identifier) @name)] type: (type (declEnum))) @definition.enum
(declType name: [(identifier) @name (genericTpl entity: (identifier) @name)] type: (type (declProcRef))) @definition.type
(declType name: [(identifier) @name (genericTpl entity: (identifier) @name)] type: (declHelper)) @definition.class

(declProc name: [(identifier) @name (genericTpl entity: (identifier) @name)]) @definition.function
(defProc header: (declProc name: [(identifier) @name (genericTpl entity: (identifier) @name)])) @definition.function
; `TBasket.Add`, `TOuter.TInner.Run`, `TGroup<T>.Get`: the class (without its type parameters) is the qualifier;
; a generic method (`Make<T>`) is named without its type parameters
(defProc header: (declProc name: (genericDot lhs: (_) @scope rhs: [(identifier) @name (genericTpl entity: (identifier) @name)]))) @definition.function
