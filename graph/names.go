package graph

import (
	"strconv"
	"strings"

	"github.com/gofx/gofx/node"
)

// pythonReserved holds Python's keywords and builtins, and the names
// torch.fx's generated code imports (inf, nan, torch, device, ...). Node
// names avoid them, as torch.fx's do, so Code output never shadows them.
var pythonReserved = func() map[string]bool {
	m := map[string]bool{}
	for _, s := range strings.Fields(`ArithmeticError AssertionError AttributeError BaseException
	BaseExceptionGroup BlockingIOError BrokenPipeError BufferError BytesWarning ChildProcessError
	ConnectionAbortedError ConnectionError ConnectionRefusedError ConnectionResetError
	DeprecationWarning EOFError Ellipsis EncodingWarning EnvironmentError Exception ExceptionGroup
	False FileExistsError FileNotFoundError FloatingPointError FutureWarning GeneratorExit IOError
	ImportError ImportWarning IndentationError IndexError InterruptedError IsADirectoryError
	KeyError KeyboardInterrupt LookupError MemoryError ModuleNotFoundError NameError None
	NotADirectoryError NotImplemented NotImplementedError OSError OverflowError
	PendingDeprecationWarning PermissionError ProcessLookupError RecursionError ReferenceError
	ResourceWarning RuntimeError RuntimeWarning StopAsyncIteration StopIteration SyntaxError
	SyntaxWarning SystemError SystemExit TabError TimeoutError True TypeError UnboundLocalError
	UnicodeDecodeError UnicodeEncodeError UnicodeError UnicodeTranslateError UnicodeWarning
	UserWarning ValueError Warning ZeroDivisionError abs aiter all and anext any as ascii assert
	async await bin bool break breakpoint bytearray bytes callable chr class classmethod compile
	complex continue copyright credits def del delattr dict dir divmod elif else enumerate eval
	except exec exit filter finally float for format from frozenset getattr global globals hasattr
	hash help hex id if import in input int is isinstance issubclass iter lambda len license list
	locals map max memoryview min next nonlocal not object oct open or ord pass pow print property
	quit raise range repr return reversed round set setattr slice sorted staticmethod str sum super
	try tuple type vars while with yield zip
	inf nan NoneType torch device fx_pytree pytree self`) {
		m[s] = true
	}
	return m
}()

// namespace hands out unique node names the way torch.fx does ("add",
// "add_1", "add_2", ...), but in amortized O(1): a counter per base name
// replaces torch.fx 1.13's walk from _1 upwards.
type namespace struct {
	nodes map[string]*node.Node // nodes by name; erased nodes and reserved words stay, taken
	count map[string]int        // highest suffix handed out per base name
}

func newNamespace() namespace {
	ns := namespace{nodes: make(map[string]*node.Node, len(pythonReserved)), count: map[string]int{}}
	for name := range pythonReserved {
		ns.nodes[name] = nil // taken, never a node
	}
	return ns
}

// snakeCase converts CamelCase to snake_case as torch.fx's _snake_case:
// an underscore goes before each upper-case letter that follows a
// lower-case one.
func snakeCase(s string) string {
	if strings.IndexFunc(s, func(r rune) bool { return 'A' <= r && r <= 'Z' }) < 0 {
		return s
	}
	var b strings.Builder
	prevLower := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		isUpper := 'A' <= c && c <= 'Z'
		if prevLower && isUpper {
			b.WriteByte('_')
		}
		if isUpper {
			c += 'a' - 'A'
		}
		b.WriteByte(c)
		prevLower = 'a' <= s[i] && s[i] <= 'z'
	}
	return b.String()
}

// sanitize replaces every run of characters that cannot appear in an
// identifier with one underscore, and prefixes a leading digit with one.
func sanitize(s string) string {
	if node.IsIdentifier(s) {
		return s
	}
	var b strings.Builder
	inBad := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		ok := c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
		if ok {
			b.WriteByte(c)
			inBad = false
		} else if !inBad {
			b.WriteByte('_')
			inBad = true
		}
	}
	out := b.String()
	if out == "" {
		return "_"
	}
	if out[0] >= '0' && out[0] <= '9' {
		out = "_" + out
	}
	return out
}

// splitSuffix splits "add_12" into ("add", 12, true).
func splitSuffix(s string) (string, int, bool) {
	i := strings.LastIndexByte(s, '_')
	if i <= 0 || i == len(s)-1 {
		return s, 0, false
	}
	digits := s[i+1:]
	for j := 0; j < len(digits); j++ {
		if digits[j] < '0' || digits[j] > '9' {
			return s, 0, false
		}
	}
	n, err := strconv.Atoi(digits)
	if err != nil || n > 1<<40 {
		return s, 0, false
	}
	return s[:i], n, true
}

func (ns *namespace) taken(name string) bool {
	_, used := ns.nodes[name]
	return used
}

// create returns a fresh name derived from candidate and records it as n's.
func (ns *namespace) create(candidate string, n *node.Node) string {
	candidate = sanitize(candidate)
	base, num, hasNum := splitSuffix(candidate)
	if hasNum {
		candidate = base + "_" + strconv.Itoa(num)
	}
	if num == 0 {
		num = ns.count[base]
	}
	for ns.taken(candidate) {
		num++
		candidate = base + "_" + strconv.Itoa(num)
	}
	if num > ns.count[base] {
		ns.count[base] = num
	}
	ns.nodes[candidate] = n
	return candidate
}

// reserveExact takes name as it is for n; it reports false if the name is
// taken, reserved in Python, or not an identifier.
func (ns *namespace) reserveExact(name string, n *node.Node) bool {
	if !node.IsIdentifier(name) || ns.taken(name) {
		return false
	}
	ns.nodes[name] = n
	if base, num, ok := splitSuffix(name); ok && num > ns.count[base] {
		ns.count[base] = num
	}
	return true
}

// defaultName is the candidate name of a node, as torch.fx's
// _target_to_str: the function's short name, the method name, or the
// dotted path with its dots turned into underscores, in snake_case.
func defaultName(op node.Opcode, target node.Target) string {
	switch op {
	case node.CallFunction:
		if f, ok := target.(node.Function); ok {
			return snakeCase(f.ShortName())
		}
	case node.Placeholder:
		return snakeCase(strings.TrimLeft(target.String(), "*"))
	case node.Output:
		return "output"
	}
	return snakeCase(target.String())
}
