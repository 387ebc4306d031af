package export

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/sym"
)

// Auto is torch.export's Dim.AUTO: declared for a dimension (Dims{"x":
// {0: export.Auto}}), it makes that dimension dynamic unless the program
// specializes it. Where a dynamic Dimension declared with Dim makes Export
// fail with the guard the model needs, an automatic one takes the fix:
// it becomes static when the model needs its example size, one dimension
// with another it must equal, and its range narrows to the bound the model
// needs. Each such decision is a Specialization, reported through the
// Specializations option. Sizes 0 and 1 are always static.
var Auto = &Dimension{Name: "AUTO", Min: 2, Max: Inf}

// AllAuto makes every dimension of every tensor input that dims does not
// declare Auto (the CLI's -dynamic auto).
func AllAuto() Option { return func(c *config) { c.allAuto = true } }

// Specializations makes Export append to *dst what it decided for the
// dimensions declared Auto: those it made static, merged or narrowed, each
// with the guard and the Go line that caused it.
func Specializations(dst *[]Specialization) Option {
	return func(c *config) { c.report = dst }
}

// Specialization is one decision Export took for dimensions declared
// Auto because the model needed it.
type Specialization struct {
	// Dims are the input dimensions concerned.
	Dims []InputDim
	// Msg says what was decided: "static: specialized to 3",
	// "equal to y.shape[0]", "x.shape[0] >= 4".
	Msg string
	// Guard is the condition the model relied on, over the input
	// dimensions; empty for an example size of 0 or 1.
	Guard string
	// Where is the Go location that needed it.
	Where string
}

// String prints "x.shape[1]: static: specialized to 3 (guard
// Eq(x.shape[1], 3) at model.go:12)".
func (s Specialization) String() string {
	names := make([]string, len(s.Dims))
	for i, d := range s.Dims {
		names[i] = d.String()
	}
	out := strings.Join(names, ", ") + ": " + s.Msg
	switch {
	case s.Guard != "" && s.Where != "":
		out += fmt.Sprintf(" (guard %s at %s)", s.Guard, s.Where)
	case s.Guard != "":
		out += fmt.Sprintf(" (guard %s)", s.Guard)
	}
	return out
}

// maxAutoRounds bounds the exports of an Auto spec: each round fixes every
// guard the last one found, so two or three are the rule.
const maxAutoRounds = 8

// usesAuto reports whether dims declares a dimension Auto.
func usesAuto(dims Dims) bool {
	for _, m := range dims {
		for _, d := range m {
			if d == Auto {
				return true
			}
		}
	}
	return false
}

// exportAuto exports with the Auto dimensions made dynamic, each its own
// Dimension named after the input dimension (x.shape[0]), taking the fix
// of every guard on them until the model exports.
func exportAuto(m nn.Module, args []any, dims Dims, cfg config, opts []Option) (*ExportedProgram, error) {
	b, err := bindInputs(m, args, cfg.kwargs)
	if err != nil {
		return nil, err
	}
	if dims, err = b.byPath(dims); err != nil {
		return nil, err
	}
	names, vals := b.names(), b.vals()
	var notes []Specialization
	spec := Dims{}
	auto := map[string][]InputDim{} // automatic Dimension name -> its input dims
	for i, name := range names {
		t := vals[i].Tensor()
		declared := dims[name]
		if t == nil {
			if len(declared) > 0 {
				return nil, &SpecError{Input: name, Dim: -1, Msg: fmt.Sprintf("only tensor inputs have dynamic dims; this input is a %s (it is specialized)", vals[i].Kind())}
			}
			continue
		}
		for d := range declared {
			if d < 0 || d >= t.Dim() {
				return nil, &SpecError{Input: name, Dim: d, Msg: fmt.Sprintf("dimension out of range: the input has %d dims (shape %v)", t.Dim(), t.Shape())}
			}
		}
		for d, size := range t.Shape() {
			dim, ok := declared[d]
			if ok && dim != Auto {
				if spec[name] == nil {
					spec[name] = map[int]*Dimension{}
				}
				spec[name][d] = dim
				continue
			}
			if !ok && !cfg.allAuto {
				continue
			}
			id := InputDim{Input: name, Dim: d}
			if size < 2 {
				notes = append(notes, Specialization{Dims: []InputDim{id}, Msg: fmt.Sprintf("static: the example size %d is specialized (sizes 0 and 1 broadcast)", size)})
				continue
			}
			if spec[name] == nil {
				spec[name] = map[int]*Dimension{}
			}
			spec[name][d] = Dim(id.String(), 2, Inf)
			auto[id.String()] = []InputDim{id}
		}
	}
	once := append(append([]Option(nil), opts...), func(c *config) { c.allAuto, c.report = false, nil })
	for round := 0; ; round++ {
		ep, err := Export(m, args, spec, once...)
		var ge *GuardError
		if !errors.As(err, &ge) || round == maxAutoRounds {
			if err == nil && cfg.report != nil {
				*cfg.report = append(*cfg.report, notes...)
			}
			return ep, err
		}
		next := spec.clone()
		cloneOf := map[string]*Dimension{}
		for _, dm := range next {
			for _, d := range dm {
				cloneOf[d.Name] = d
			}
		}
		for _, v := range ge.Violations {
			c := normalize(v.Guard.Cond)
			syms := append(c.L.Symbols(), c.R.Symbols()...)
			var concerned []InputDim
			last := ""
			for _, s := range syms {
				n := symbolDim(ge, s.Name())
				ids, ok := auto[n]
				if !ok {
					// A dimension the caller declared with Dim: its
					// guard is the caller's to fix.
					return nil, err
				}
				concerned = append(concerned, ids...)
				if last == "" || symbolNumber(s.Name()) > symbolNumber(lastSym(ge, last)) {
					last = n
				}
			}
			note := Specialization{Guard: renameSymbols(c.String(), ge), Where: v.Guard.Where}
			if _, ok := explain(c, ge.dimOf, next, cloneOf); ok {
				note.Dims, note.Msg = concerned, autoMsg(c, ge)
			} else {
				// No fix over the dimensions: make the last one static
				// (torch.export's choice for x.reshape(-1, 3)) and see.
				id := auto[last][0]
				note.Dims = auto[last]
				note.Msg = fmt.Sprintf("static: specialized to %d", vals[index(names, id.Input)].Tensor().Shape()[id.Dim])
				next.remove(last)
			}
			notes = append(notes, note)
		}
		// A merged Dimension keeps the first one's name: collect the
		// input dims each automatic Dimension now stands for.
		merged := map[string][]InputDim{}
		for _, in := range sortedKeys(next) {
			for _, d := range sortedInts(next[in]) {
				if n := next[in][d].Name; auto[n] != nil {
					merged[n] = append(merged[n], InputDim{Input: in, Dim: d})
				}
			}
		}
		auto = merged
		spec = next
	}
}

// symbolDim returns the name of the Dimension of symbol s in a failed
// export.
func symbolDim(ge *GuardError, s string) string {
	if d, ok := ge.dimOf[s]; ok {
		return d.Name
	}
	return s
}

// remove deletes every declaration of the Dimension called name.
func (d Dims) remove(name string) {
	for in, m := range d {
		for i, dim := range m {
			if dim.Name == name {
				delete(m, i)
			}
		}
		if len(m) == 0 {
			delete(d, in)
		}
	}
}

var symbolName = regexp.MustCompile(`\bs\d+\b`)

// renameSymbols writes a guard over the input dimensions (x.shape[0])
// instead of the symbols of a failed export.
func renameSymbols(s string, ge *GuardError) string {
	return symbolName.ReplaceAllStringFunc(s, func(sym string) string {
		if d, ok := ge.dimOf[sym]; ok {
			return d.Name
		}
		return sym
	})
}

// autoMsg says what fixing the guard c decided.
func autoMsg(c sym.Cond, ge *GuardError) string {
	l, lok := lone(c.L)
	r, rok := lone(c.R)
	if c.Rel == sym.EQ {
		if k, ok := c.R.Const(); ok && lok {
			return fmt.Sprintf("static: specialized to %d", k)
		}
		if k, ok := c.L.Const(); ok && rok {
			return fmt.Sprintf("static: specialized to %d", k)
		}
		if lok && rok {
			return fmt.Sprintf("%s and %s are one dimension", symbolDim(ge, l.Name()), symbolDim(ge, r.Name()))
		}
	}
	return "range narrowed: " + renameSymbols(c.String(), ge)
}

// symbolNumber is the number of symbol sN (created in input and dim
// order), -1 for another name.
func symbolNumber(s string) int {
	n, err := strconv.Atoi(strings.TrimPrefix(s, "s"))
	if err != nil || !strings.HasPrefix(s, "s") {
		return -1
	}
	return n
}

// lastSym returns the symbol of the Dimension called name in a failed
// export.
func lastSym(ge *GuardError, name string) string {
	for s, d := range ge.dimOf {
		if d.Name == name {
			return s
		}
	}
	return ""
}

func index(names []string, name string) int {
	for i, n := range names {
		if n == name {
			return i
		}
	}
	return -1
}
