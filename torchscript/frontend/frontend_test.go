package frontend

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gofx/gofx/torchscript/syntax"
)

// compileSource compiles every class method and function of src (module
// __torch__, file name "code/__torch__.py") and returns the first error.
func compileSource(src []byte) error {
	cu := New(func(m string) ([]byte, bool) { return src, m == "__torch__" }, nil)
	f, err := syntax.Parse("code/__torch__.py", src)
	if err != nil {
		return err
	}
	for _, s := range f.Stmts {
		switch d := s.(type) {
		case *syntax.ClassDef:
			c, err := cu.Class("__torch__." + d.Name)
			if err != nil {
				return err
			}
			for _, m := range c.Methods {
				if _, err := m.Graph(); err != nil {
					return err
				}
			}
		case *syntax.FuncDef:
			fn, err := cu.Function("__torch__." + d.Name)
			if err != nil {
				return err
			}
			if _, err := fn.Graph(); err != nil {
				return err
			}
		}
	}
	return nil
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"unknown op", "def f(x: Tensor) -> Tensor:\n  return torch.no_such_op(x)\n",
			"code/__torch__.py:2:10: unknown builtin op aten::no_such_op"},
		{"no overload", "def f(x: Tensor) -> Tensor:\n  return torch.relu(x, x)\n",
			"code/__torch__.py:2:10: no overload of aten::relu accepts (Tensor, Tensor)"},
		{"wrong return type", "def f(x: Tensor) -> int:\n  return x\n",
			"code/__torch__.py:2:3: return value of __torch__.f: expected a value of type int, got Tensor"},
		{"undefined name", "def f(x: Tensor) -> Tensor:\n  return y\n",
			"code/__torch__.py:2:10: undefined name y"},
		{"unknown class", "def f(x: __torch__.Nope) -> Tensor:\n  return x\n",
			"code/__torch__.py:1:10: the archive's code defines no class __torch__.Nope"},
		{"unknown attribute", "class A(Module):\n  __parameters__ = []\n  __buffers__ = []\n  training : bool\n  def forward(self: __torch__.A) -> bool:\n    return self.nope\n",
			"code/__torch__.py:6:12: class __torch__.A has no attribute or method nope"},
		{"return in a loop", "def f(x: int) -> int:\n  for i in range(x):\n    return i\n  return x\n",
			"code/__torch__.py:2:3: a return inside a loop is not supported"},
		{"break", "def f(x: int) -> int:\n  while True:\n    break\n  return x\n",
			"code/__torch__.py:3:5: break and continue are not supported"},
		{"bad constant index", "def f(x: Tensor) -> Tensor:\n  return CONSTANTS.c3\n",
			"code/__torch__.py:2:10: CONSTANTS.c3: the archive has 0 constants"},
		{"tuple index", "def f(x: Tuple[int, int]) -> int:\n  return x[2]\n",
			"code/__torch__.py:2:12: tuple index 2 out of range for a tuple of 2 elements"},
		{"unpack", "def f(x: Tensor) -> Tensor:\n  a, b = x\n  return a\n",
			"code/__torch__.py:2:10: cannot unpack a value of type Tensor into 2 targets"},
		{"recursion", "def f(x: int) -> int:\n  return __torch__.g(x)\ndef g(x: int) -> int:\n  return __torch__.f(x)\n",
			"is recursive"},
		{"loop type change", "def f(x: int) -> int:\n  y = 1\n  for i in range(x):\n    y = 1.5\n  return y\n",
			"code/__torch__.py:3:3: loop variable y has type int before the loop and float at the end of the body"},
		{"bad base", "class A(Foo):\n  pass\n",
			"code/__torch__.py:1:9: class A: base Foo is not supported"},
		{"return lowering blowup", "def f(x: int) -> int:\n" + strings.Repeat("  if x:\n    if x:\n      return 1\n  else:\n    if x:\n      return 2\n", 40) + "  return x\n",
			"is too large once its returns are lowered"},
		{"bool cond", "def f(x: str) -> int:\n  if x:\n    y = 1\n  else:\n    y = 2\n  return y\n",
			"code/__torch__.py:2:6: no overload of aten::Bool accepts (str)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := compileSource([]byte(tt.src))
			if err == nil {
				t.Fatalf("compiled; want error %q", tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %q\nwant it to contain %q", err, tt.want)
			}
		})
	}
}

func TestErrorType(t *testing.T) {
	err := compileSource([]byte("def f(x: Tensor) -> Tensor:\n  return y\n"))
	var fe *Error
	if !errors.As(err, &fe) {
		t.Fatalf("error %v (%T) is not a *frontend.Error", err, err)
	}
	if fe.File != "code/__torch__.py" || fe.Pos != (syntax.Pos{Line: 2, Col: 10}) {
		t.Errorf("error at %s %v, want code/__torch__.py 2:10", fe.File, fe.Pos)
	}
}

// FuzzCompile compiles arbitrary code as an archive's __torch__ module:
// no input may panic (an internal error the emitter recovers from counts
// as one).
func FuzzCompile(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/cases/*.src.py")
	for _, p := range seeds {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	pts, _ := filepath.Glob("testdata/cases/*.pt")
	for _, p := range pts {
		for k, b := range codeFiles(f, p) {
			if k != versionKey {
				f.Add(b)
			}
		}
	}
	f.Add([]byte("class A(Module):\n  __parameters__ = []\n  __buffers__ = []\n  x : Final[int] = 3\n  def forward(self: __torch__.A, y: int) -> int:\n    return torch.add(self.x, y)\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		err := compileSource(src)
		if err != nil && strings.Contains(err.Error(), "internal error") {
			t.Fatalf("%v\nsource:\n%s", err, src)
		}
	})
}
