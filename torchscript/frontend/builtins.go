package frontend

import (
	"strings"
	"sync"

	"github.com/gofx/gofx/torchscript/syntax"
	"github.com/gofx/gofx/torchscript/types"
)

// builtinSource is TorchScript's builtin functions that a call may match
// after the registered operators (builtin_functions.cpp's scalar
// operators: a number first and a tensor second, as torch.add(1, x)); a
// match is inlined. Each def is named op_type.
var builtinSource = func() string {
	var b strings.Builder
	ops := [][2]string{
		{"mul", "torch.mul(b, a)"}, {"add", "torch.add(b, a)"}, {"ne", "torch.ne(b, a)"},
		{"eq", "torch.eq(b, a)"}, {"sub", "torch.add(torch.neg(b), a)"},
		{"div", "torch.mul(torch.reciprocal(b), a)"},
	}
	noComplex := [][2]string{
		{"lt", "torch.gt(b, a)"}, {"le", "torch.ge(b, a)"}, {"ge", "torch.le(b, a)"}, {"gt", "torch.lt(b, a)"},
	}
	write := func(list [][2]string, scalars []string) {
		for _, o := range list {
			for _, s := range scalars {
				b.WriteString("def " + o[0] + "_" + s + "(a: " + s + ", b: Tensor) -> Tensor:\n  return " + o[1] + "\n")
			}
		}
	}
	write(ops, []string{"float", "int", "complex"})
	write(noComplex, []string{"float", "int"})
	return b.String()
}()

var (
	builtinOnce  sync.Once
	builtinAST   *syntax.File
	builtinNames map[string][]string // "aten::add" → def names in order
)

func loadBuiltins() {
	builtinOnce.Do(func() {
		f, err := syntax.Parse("<builtins>", []byte(builtinSource))
		if err != nil {
			panic("frontend: builtin functions: " + err.Error())
		}
		builtinAST = f
		builtinNames = map[string][]string{}
		for _, s := range f.Stmts {
			d := s.(*syntax.FuncDef)
			op, _, _ := strings.Cut(d.Name, "_")
			builtinNames["aten::"+op] = append(builtinNames["aten::"+op], d.Name)
		}
	})
}

// builtinFuncs returns the unit's builtin functions for ns::name, declared
// (their graphs compile when one matches).
func (cu *CompilationUnit) builtinFuncs(ns, name string) []*Function {
	loadBuiltins()
	names := builtinNames[ns+"::"+name]
	if len(names) == 0 {
		return nil
	}
	if cu.builtinFile == nil {
		f := &fileCtx{cu: cu, module: "__builtins__", name: "<builtins>", ast: builtinAST, defs: map[string]syntax.Stmt{}, current: true}
		for _, s := range builtinAST.Stmts {
			d := s.(*syntax.FuncDef)
			f.defs[d.Name] = d
		}
		cu.builtinFile = f
	}
	var out []*Function
	for _, n := range names {
		fn, ok := cu.builtinFns[n]
		if !ok {
			fn = &Function{Name: n, Qualified: "__builtins__." + n, file: cu.builtinFile, def: cu.builtinFile.defs[n].(*syntax.FuncDef)}
			if err := cu.builtinFile.declareFunc(fn, nil); err != nil {
				continue
			}
			cu.builtinFns[n] = fn
		}
		out = append(out, fn)
	}
	return out
}

// funcSig is the signature a call of fn is matched against.
func funcSig(fn *Function) *callSig {
	s := &callSig{name: fn.Qualified, returns: []types.Type{fn.Returns}, inline: fn}
	for _, p := range fn.Params {
		f := formal{name: p.Name, t: p.Type, kwOnly: p.KwargOnly}
		if p.HasDefault {
			d := p.Default
			f.def = &d
		}
		s.formals = append(s.formals, f)
	}
	return s
}
