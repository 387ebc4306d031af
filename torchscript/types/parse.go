package types

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseError is an error of ParseIR: the offset in the text and what was
// wrong.
type ParseError struct {
	Text   string
	Offset int
	Msg    string
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("types: parsing %q at offset %d: %s", e.Text, e.Offset, e.Msg)
}

// Lookup resolves a qualified name (one with a dot, "__torch__.Foo") to its
// class, interface, enum or NamedTuple type.
type Lookup func(name string) (Type, bool)

// ParseIR parses a type in the spelling of the IR and of operator schemas:
// int, float, Tensor, Tensor?, int[], Dict(str, Tensor), (Tensor, int),
// Union(int, str), NamedTuple(a : int), Future(int), NoneType, Scalar,
// __torch__.Foo (a Class with that name and nothing else), t (a Var), and
// the refined tensor types of traced graphs:
// Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu), Long(),
// FloatTensor(requires_grad=0), Tensor(*, *). The Python spelling (List[int],
// Optional[Tensor], Tuple[int, str], Dict[str, int], number) is accepted
// too. The schema's SymInt, SymFloat and SymBool read as int, float and
// bool, and ScalarType, Layout and MemoryFormat read as int, as PyTorch's
// IR parser reads them (the singletons ScalarType, Layout, MemoryFormat are
// for those who need the distinction); Union(...) is normalized as NewUnion
// (Union(int, NoneType) is int?); a fixed list size (int[2]) and alias
// annotations (Tensor(a!)) are accepted and dropped.
func ParseIR(s string) (Type, error) {
	return ParseIRWith(s, nil)
}

// ParseIRWith is ParseIR with the qualified names resolved by lookup
// (nil: every qualified name is a Class with only its name).
func ParseIRWith(s string, lookup Lookup) (Type, error) {
	t, n, err := ParseIRPrefix(s, lookup)
	if err != nil {
		return nil, err
	}
	if n != len(s) {
		return nil, &ParseError{s, n, "unexpected text after the type"}
	}
	return t, nil
}

// ParseIRPrefix parses the longest type at the start of s and returns it
// with the number of bytes it took (the IR parser reads types out of a
// line this way).
func ParseIRPrefix(s string, lookup Lookup) (t Type, n int, err error) {
	p := &typeParser{s: s, lookup: lookup}
	t, err = p.typ(0)
	if err != nil {
		return nil, p.i, err
	}
	return t, p.i, nil
}

type typeParser struct {
	s      string
	i      int
	lookup Lookup
}

const maxTypeDepth = 200

func (p *typeParser) errf(format string, a ...any) error {
	return &ParseError{p.s, p.i, fmt.Sprintf(format, a...)}
}

func (p *typeParser) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *typeParser) space() {
	for p.i < len(p.s) && p.s[p.i] == ' ' {
		p.i++
	}
}

func (p *typeParser) accept(lit string) bool {
	if strings.HasPrefix(p.s[p.i:], lit) {
		p.i += len(lit)
		return true
	}
	return false
}

func (p *typeParser) expect(lit string) error {
	p.space()
	if !p.accept(lit) {
		return p.errf("expected %q", lit)
	}
	return nil
}

func identByte(c byte) bool {
	return c == '_' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func (p *typeParser) ident() string {
	start := p.i
	if p.i < len(p.s) && (p.s[p.i] >= '0' && p.s[p.i] <= '9' || p.s[p.i] == '.') {
		return ""
	}
	for p.i < len(p.s) && identByte(p.s[p.i]) {
		p.i++
	}
	// a name never ends with a dot
	for p.i > start && p.s[p.i-1] == '.' {
		p.i--
	}
	return p.s[start:p.i]
}

var basicNames = map[string]Type{
	"Any": Any, "int": Int, "float": Float, "complex": Complex, "bool": Bool, "str": Str,
	"NoneType": None, "None": None, "Device": Device, "Scalar": Number, "number": Number,
	"Layout": Int, "ScalarType": Int, "MemoryFormat": Int, // ints in the IR, as PyTorch's parser reads them
	"Generator": Generator, "Storage": Storage, "Stream": Stream, "QScheme": QScheme,
	"Capsule": Capsule, "list": AnyList, "tuple": AnyTuple, "AnyClassType": AnyClass,
	"AnyEnumType": AnyEnum, "Function": Function,
	"SymInt": Int, "SymFloat": Float, "SymBool": Bool, "Dimname": Str, "DeviceIndex": Int,
}

// ScalarTypeNames are the scalar type names PyTorch prints in refined
// tensor types (c10::toString(ScalarType)).
var ScalarTypeNames = []string{"Byte", "Char", "Short", "Int", "Long", "Half", "Float", "Double",
	"ComplexHalf", "ComplexFloat", "ComplexDouble", "Bool", "QInt8", "QUInt8", "QInt32", "BFloat16",
	"QUInt4x2", "QUInt2x4", "Bits1x8", "Bits2x4", "Bits4x2", "Bits8", "Bits16", "Float8_e5m2",
	"Float8_e4m3fn", "Float8_e5m2fnuz", "Float8_e4m3fnuz", "UInt16", "UInt32", "UInt64",
	"UInt1", "UInt2", "UInt3", "UInt4", "UInt5", "UInt6", "UInt7",
	"Int1", "Int2", "Int3", "Int4", "Int5", "Int6", "Int7", "Float8_e8m0fnu", "Float4_e2m1fn_x2"}

var scalarTypeSet = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range ScalarTypeNames {
		m[n] = true
	}
	return m
}()

func (p *typeParser) typ(depth int) (Type, error) {
	if depth > maxTypeDepth {
		return nil, p.errf("type nested too deeply")
	}
	p.space()
	t, err := p.primary(depth)
	if err != nil {
		return nil, err
	}
	for {
		switch {
		case p.accept("[]"):
			t = &List{t}
			if err := p.skipAlias(); err != nil {
				return nil, err
			}
		case p.peek() == '[' && p.i+1 < len(p.s) && p.s[p.i+1] >= '0' && p.s[p.i+1] <= '9':
			j := p.i + 1
			for j < len(p.s) && p.s[j] >= '0' && p.s[j] <= '9' {
				j++
			}
			if j >= len(p.s) || p.s[j] != ']' {
				return t, nil
			}
			p.i = j + 1
			t = &List{t}
			if err := p.skipAlias(); err != nil {
				return nil, err
			}
		case p.accept("?"):
			t = &Optional{t}
		default:
			return t, nil
		}
	}
}

func (p *typeParser) list(depth int, close string) ([]Type, error) {
	var ts []Type
	p.space()
	if p.accept(close) {
		return ts, nil
	}
	for {
		t, err := p.typ(depth + 1)
		if err != nil {
			return nil, err
		}
		ts = append(ts, t)
		p.space()
		if p.accept(close) {
			return ts, nil
		}
		if !p.accept(",") {
			return nil, p.errf("expected ',' or %q in a type list", close)
		}
	}
}

func (p *typeParser) one(depth int, close string) (Type, error) {
	t, err := p.typ(depth + 1)
	if err != nil {
		return nil, err
	}
	return t, p.expect(close)
}

func (p *typeParser) primary(depth int) (Type, error) {
	if p.accept("(") {
		ts, err := p.list(depth, ")")
		if err != nil {
			return nil, err
		}
		if ts == nil {
			ts = []Type{}
		}
		return &Tuple{Elems: ts}, nil
	}
	start := p.i
	name := p.ident()
	if name == "" {
		return nil, p.errf("expected a type")
	}
	open := p.peek()
	switch name {
	case "Tensor":
		return p.tensorRest("", true)
	case "NamedTuple":
		if open == '(' {
			p.i++
			return p.namedTuple(depth)
		}
	case "Dict":
		if open == '(' || open == '[' {
			p.i++
			ts, err := p.list(depth, closer(open))
			if err != nil {
				return nil, err
			}
			if len(ts) != 2 {
				p.i = start
				return nil, p.errf("Dict takes 2 types, got %d", len(ts))
			}
			return &Dict{ts[0], ts[1]}, nil
		}
	case "Union":
		if open == '(' || open == '[' {
			p.i++
			ts, err := p.list(depth, closer(open))
			if err != nil {
				return nil, err
			}
			if len(ts) == 0 {
				return nil, p.errf("empty Union")
			}
			return NewUnion(ts...), nil
		}
	case "Tuple":
		if open == '[' {
			p.i++
			if p.accept("()]") {
				return &Tuple{Elems: []Type{}}, nil
			}
			ts, err := p.list(depth, "]")
			if err != nil {
				return nil, err
			}
			return &Tuple{Elems: ts}, nil
		}
	case "List", "Optional", "Future", "Await", "RRef":
		if open == '[' || open == '(' && name != "List" && name != "Optional" {
			p.i++
			e, err := p.one(depth, closer(open))
			if err != nil {
				return nil, err
			}
			switch name {
			case "List":
				return &List{e}, nil
			case "Optional":
				return &Optional{e}, nil
			case "Future":
				return &Future{e}, nil
			case "Await":
				return &Await{e}, nil
			}
			return &RRef{e}, nil
		}
	case "Enum":
		if p.accept("<") {
			q := p.ident()
			if q == "" || !p.accept(">") {
				return nil, p.errf("expected Enum<qualified name>")
			}
			if p.lookup != nil {
				if t, ok := p.lookup(q); ok && t.Kind() == EnumKind {
					return t, nil
				}
			}
			return &Enum{Name: q}, nil
		}
	}
	switch name {
	case "NamedTuple", "Dict", "Union", "Tuple", "List", "Optional", "Future", "Await", "RRef", "Enum":
		// A type constructor without its arguments is not a type (nor a
		// type variable: List[Optional] would print as Optional[]).
		p.i = start
		return nil, p.errf("%s needs its element types", name)
	}
	if t, ok := basicNames[name]; ok {
		return t, p.skipAlias()
	}
	if dt, ok := strings.CutSuffix(name, "Tensor"); ok && scalarTypeSet[dt] {
		return p.tensorRest(dt, true)
	}
	if scalarTypeSet[name] && open == '(' {
		return p.tensorRest(name, false)
	}
	if strings.Contains(name, ".") {
		if p.lookup != nil {
			if t, ok := p.lookup(name); ok {
				return t, nil
			}
		}
		return &Class{Name: name}, nil
	}
	return &Var{Name: name}, p.skipAlias()
}

func closer(open byte) string {
	if open == '[' {
		return "]"
	}
	return ")"
}

// skipAlias skips a schema alias annotation "(a!)", "(a -> *)".
func (p *typeParser) skipAlias() error {
	if p.peek() != '(' || p.i+1 >= len(p.s) {
		return nil
	}
	c := p.s[p.i+1]
	if !(c >= 'a' && c <= 'z' || c == '*' && p.i+2 < len(p.s) && p.s[p.i+2] == ')') {
		return nil
	}
	j := strings.IndexByte(p.s[p.i:], ')')
	if j < 0 {
		return p.errf("unterminated alias annotation")
	}
	if strings.Contains(p.s[p.i:p.i+j], "=") {
		return nil
	}
	p.i += j + 1
	return nil
}

func (p *typeParser) namedTuple(depth int) (Type, error) {
	t := &Tuple{Names: []string{}, Elems: []Type{}}
	p.space()
	if p.accept(")") {
		return t, nil
	}
	for {
		p.space()
		n := p.ident()
		if n == "" {
			return nil, p.errf("expected a NamedTuple field name")
		}
		if err := p.expect(":"); err != nil {
			return nil, err
		}
		e, err := p.typ(depth + 1)
		if err != nil {
			return nil, err
		}
		t.Names, t.Elems = append(t.Names, n), append(t.Elems, e)
		p.space()
		if p.accept(")") {
			return t, nil
		}
		if !p.accept(",") {
			return nil, p.errf("expected ',' or ')' in a NamedTuple")
		}
	}
}

// tensorRest reads what follows "Tensor", "FloatTensor" or "Float": the
// refinements in parentheses, and [Undefined]. plainName is true after
// "Tensor" and "FloatTensor", whose parentheses hold no sizes unless
// they start with one.
func (p *typeParser) tensorRest(dtype string, plainName bool) (Type, error) {
	t := &TensorType{DType: dtype}
	if p.peek() == '(' {
		if dtype == "" {
			if err := p.skipAlias(); err != nil {
				return nil, err
			}
		}
	}
	if p.peek() == '(' {
		p.i++
		if !plainName || p.peek() == ')' {
			t.Rank = true
			t.Sizes = []int64{}
		}
		first := true
		for !p.accept(")") {
			if !first {
				if !p.accept(", ") {
					return nil, p.errf("expected ', ' or ')' in a tensor type")
				}
			}
			first = false
			switch {
			case p.accept("strides=["):
				t.Strides = []int64{}
				for !p.accept("]") {
					if len(t.Strides) > 0 && !p.accept(", ") {
						return nil, p.errf("expected ', ' or ']' in strides")
					}
					v, err := p.int()
					if err != nil {
						return nil, err
					}
					t.Strides = append(t.Strides, v)
				}
			case p.accept("requires_grad="):
				switch {
				case p.accept("1"):
					b := true
					t.RequiresGrad = &b
				case p.accept("0"):
					b := false
					t.RequiresGrad = &b
				default:
					return nil, p.errf("expected requires_grad=0 or 1")
				}
			case p.accept("device="):
				j := p.i
				for j < len(p.s) && (identByte(p.s[j]) || p.s[j] == ':') {
					j++
				}
				if j == p.i {
					return nil, p.errf("expected a device")
				}
				t.Device, p.i = p.s[p.i:j], j
			case p.accept("*"):
				if !t.Rank {
					t.Rank, t.Sizes = true, []int64{}
				}
				t.Sizes = append(t.Sizes, -1)
			default:
				if plainName {
					t.Rank = true
					if t.Sizes == nil {
						t.Sizes = []int64{}
					}
				}
				v, err := p.int()
				if err != nil {
					return nil, err
				}
				t.Sizes = append(t.Sizes, v)
			}
			if p.i >= len(p.s) {
				return nil, p.errf("unterminated tensor type")
			}
		}
	}
	if t.Strides != nil && (len(t.Strides) != len(t.Sizes) || len(t.Sizes) == 0) {
		return nil, p.errf("a tensor type's strides must match its %d sizes", len(t.Sizes))
	}
	if p.accept("[Undefined]") {
		t.Undefined = true
	}
	if t.IsPlain() {
		return Tensor, nil
	}
	return t, nil
}

func (p *typeParser) int() (int64, error) {
	j := p.i
	if j < len(p.s) && p.s[j] == '-' {
		j++
	}
	for j < len(p.s) && p.s[j] >= '0' && p.s[j] <= '9' {
		j++
	}
	v, err := strconv.ParseInt(p.s[p.i:j], 10, 64)
	if err != nil {
		return 0, p.errf("expected an integer")
	}
	p.i = j
	return v, nil
}
