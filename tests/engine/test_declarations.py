"""Functions that declare without implementing (engine/declarations.py). The prior that ranks the code doing
the work above them is tested on a real index in test_priors.py."""

import pytest

from spyglass.engine.declarations import is_declaration

DECLARATIONS = [
    ("python", 'def pytest_addoption(parser):\n    """Register argparse-style options."""\n'),
    ("python", "    @overload\n    def get(self, key: str) -> str: ...\n"),
    ("python", '    def match(self, request):\n        """Whether the rule matches."""\n        pass\n'),
    ("python", "    def close(self):\n        raise NotImplementedError\n"),
    ("python", '    async def read(self, n: int) -> bytes:\n        raise NotImplementedError("a subclass reads")\n'),
    ("rust", "    /// Polls the future; see {@link Poll}.\n    fn poll(&mut self, cx: &mut Context<'_>) -> Poll;\n"),
    (
        "rust",
        "    fn deserialize_seq<V>(self, visitor: V) -> Result<V::Value, E>\n    where\n        V: Visitor<'de>;\n",
    ),
    ("java", "    /** Formats {@code millis}. */\n    @Deprecated\n    String format(long millis);\n"),
    ("typescript", "export function tuple<T extends unknown[]>(items: T, params?: string): Tuple<T>;\n"),
    (  # an overload whose parameter is a function: the arrow is a type
        "typescript",
        "function addMethod<T>(\n  schemaType: (...arg: any[]) => T,\n  fn: (this: T) => T,\n): void;\n",
    ),
    ("typescript", "  on(event: string, listener: (event: Event) => void): this;\n"),
    ("cpp", "  virtual void run() override = 0;\n"),
    ("cpp", "  Buffer(const Buffer&) = delete;\n"),
    ("c", "int uv_run(uv_loop_t* loop, uv_run_mode mode);\n"),
    ("cuda", "__device__ float clamp01(float x);\n"),
    ("solidity", "    function deposit(uint256 amount) external returns (uint256);\n"),
    ("groovy", "    abstract int delayFor(int attempt);\n"),
    ("ocaml-interface", "val post : t -> amount:float -> memo:string -> float\n"),
    ("ocaml", "  val find : string -> entry option\n"),  # a module type's
    ("fsharp", "    abstract Handle : Route -> string\n"),
    ("gdscript", "@abstract\nfunc area() -> float\n"),
    ("gdscript", "@abstract func describe() -> String\n"),
    ("vb", "        Function Load(buyerId As String) As Basket\n"),  # an interface's
    ("vb", "    <Obsolete>\n    Public MustOverride Sub Save(\n        basket As Basket,\n        force As Boolean)\n"),
    ("pascal", "    /// Adds an item.\n    procedure Add(const AItem: string; N: Integer = 1); virtual; abstract;\n"),
    ("pascal", "function Describe(AStack: TStringStack): string;\n"),  # the interface section's
    ("ada", "   procedure Push (Q : in out Queue; J : Job);\n   --  Add J behind the jobs of its priority.\n"),
    ("ada", "   function Pop\n     (Q : in out Queue;\n      Level : Priority := High) return Job;\n"),
    ("ada", "   function Area (S : Shape) return Float is abstract;\n"),
    ("systemverilog", "  extern function void send(byte value);\n"),
    ("systemverilog", "  pure virtual task run(uvm_phase phase);\n"),
    ("verilog", 'import "DPI-C" function int uart_model_byte(input int value);\n'),
    ("vhdl", "  function clog2(n : positive) return natural;\n"),
    ("vhdl", "  procedure clear(\n    signal flag : out std_logic  -- the flag\n  );\n"),
]

DEFINITIONS = [
    ("python", "def add(a, b):\n    return a + b\n"),
    ("python", 'def hook(x):\n    """Doc."""\n    return x\n'),
    ("python", "        if x:\n            return 1\n"),  # a later part of a long definition: not Python alone
    ("rust", "fn poll(&mut self) -> Poll<()> {\n    Poll::Ready(())\n}\n"),
    ("java", "    String format(long millis) {\n        return Long.toString(millis);\n    }\n"),
    ("typescript", "export const double = (x: number): number => x * 2;\n"),
    ("typescript", "  handler = (event: Event) => this.emit(event);\n"),  # an arrow function bound to a field
    ("typescript", "  retry(times: number = 3, done: () => void): void;\n"),  # a default value: not a signature
    ("csharp", "    public int Area() => width * height;\n"),  # C#'s expression body
    ("dart", "  int get area => width * height;\n"),
    ("typescript", "export function tuple(items: { length: number }): number;\n"),  # braces in a type: not sure
    ("javascript", "const f = function () { return 1 };\n"),
    ("c", "  x = y;\n  return;\n}\nstatic int z;\n"),  # a part of a long function: more than one statement
    ("kotlin", "    fun close()\n"),  # no `;` to tell a signature: not claimed
    ("go", "func asm(x int) int\n"),
    ("solidity", "    function deposit() external payable {\n        balances[msg.sender] += msg.value;\n    }\n"),
    ("ocaml", "let total entries = List.fold_left ( +. ) 0. entries\n"),
    ("fsharp", "    member this.Add(route : Route) = routes.Add route\n"),
    ("gdscript", "func area() -> float:\n\treturn width * height\n"),
    ("gdscript", '@rpc("authority")\nfunc clear() -> void:\n\tpass\n'),
    ("vb", "    Public Sub Save(basket As Basket)\n        _store.Add(basket)\n    End Sub\n"),
    ("vb", "    Public Sub Save(basket As Basket)\n        _store.Add(basket)\n        _count += 1\n"),  # a part
    ("pascal", "function TStringStack.Count: Integer;\nbegin\n  Result := FItems.Count;\nend;\n"),
    ("pascal", "procedure TStringStack.Push(const AItem: string);\n  FItems.Add(AItem);\n  Inc(FCount);\n"),  # a part
    ("ada", "   function Length (Q : Queue) return Natural is (Natural (Q.Jobs.Length));\n"),
    ("ada", "   procedure Push (Q : in out Queue; J : Job) is\n   begin\n      Q.Jobs.Append (J);\n   end Push;\n"),
    ("ada", "   function Pop (Q : in out Queue) return Job\n      Q.Jobs.Delete (1);\n      return R;\n"),  # a part
    ("systemverilog", "  function void send(byte value);\n    vif.tx = value[0];\n  endfunction\n"),
    ("vhdl", "  procedure clear(signal flag : out std_logic) is\n  begin\n    flag <= '0';\n  end procedure;\n"),
    ("vhdl", "    flag <= '0';\n  END;\n"),  # a later part of a long procedure
]


@pytest.mark.parametrize(("language", "text"), DECLARATIONS)
def test_functions_without_a_body_are_declarations(language: str, text: str):
    assert is_declaration(language, "function", text)
    assert is_declaration(language, "method", text)


@pytest.mark.parametrize(("language", "text"), DEFINITIONS)
def test_functions_with_a_body_or_unclear_text_are_not(language: str, text: str):
    assert not is_declaration(language, "function", text)


def test_only_functions_are_declarations():
    text = "    String format(long millis);\n"
    assert is_declaration("java", "method", text)
    assert not is_declaration("java", "interface", text) and not is_declaration("java", "class", text)
