; Definitions in Elixir: everything is a call. `defmodule A.B` is a module (its functions are
; A.B.f), `defprotocol` an interface, `defimpl P, for: T` a class named P; def/defp/defmacro/defguard
; and friends are functions, named by the call or identifier they define (also with a `when` guard).
; An `@doc` right above a definition (an `@spec` may come between) is its doc; `@moduledoc` first in
; a module is the module's. Clauses of one function are merged into one span (merge_clauses). A behaviour's
; `@callback` (and `@macrocallback`) declares a function its modules implement: a span, as an interface's
; method is (Ecto.Repo's `insert`, `get`, `transaction` are callbacks, each under its `@doc`).

(call target: (identifier) @_k (#eq? @_k "defmodule")
  (arguments . (alias) @name)
  (do_block . (unary_operator operand: (call target: (identifier) @_m (#eq? @_m "moduledoc")
                                             (arguments . (string) @doc))))) @definition.module
(call target: (identifier) @_k (#eq? @_k "defmodule") (arguments . (alias) @name)) @definition.module
(call target: (identifier) @_k (#eq? @_k "defprotocol") (arguments . (alias) @name)) @definition.interface
(call target: (identifier) @_k (#eq? @_k "defimpl") (arguments . (alias) @name)) @definition.class

((unary_operator operand: (call target: (identifier) @_d (#eq? @_d "doc") (arguments . (string) @doc)))
  .
  (unary_operator)?
  .
  (call
    target: (identifier) @_k
    (#any-of? @_k "def" "defp" "defmacro" "defmacrop" "defguard" "defguardp" "defdelegate" "defn" "defnp")
    (arguments . [(call target: (identifier) @name)
                  (identifier) @name
                  (binary_operator left: (call target: (identifier) @name))
                  (binary_operator left: (identifier) @name)])) @definition.function)

(call
  target: (identifier) @_k
  (#any-of? @_k "def" "defp" "defmacro" "defmacrop" "defguard" "defguardp" "defdelegate" "defn" "defnp")
  (arguments . [(call target: (identifier) @name)
                (identifier) @name
                (binary_operator left: (call target: (identifier) @name))
                (binary_operator left: (identifier) @name)])) @definition.function

((unary_operator operand: (call target: (identifier) @_d (#eq? @_d "doc") (arguments . (string) @doc)))
  .
  (unary_operator)?
  .
  (unary_operator
    operand: (call
      target: (identifier) @_k
      (#any-of? @_k "callback" "macrocallback")
      (arguments . [(binary_operator left: [(call target: (identifier) @name) (identifier) @name])
                    (binary_operator left: (binary_operator left: [(call target: (identifier) @name)
                                                                   (identifier) @name]))]))) @definition.function)

(unary_operator
  operand: (call
    target: (identifier) @_k
    (#any-of? @_k "callback" "macrocallback")
    (arguments . [(binary_operator left: [(call target: (identifier) @name) (identifier) @name])
                  (binary_operator left: (binary_operator left: [(call target: (identifier) @name)
                                                                 (identifier) @name]))]))) @definition.function
