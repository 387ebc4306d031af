package torchscript

import (
	"fmt"
	"slices"

	"github.com/gofx/gofx/torchscript/ir"
	"github.com/gofx/gofx/torchscript/pyprint"
)

// Code returns forward's code as PyTorch's m.code prints it (see
// Method.Code).
func (m *Module) Code() (string, error) {
	mt, err := m.Method("forward")
	if err != nil {
		return "", err
	}
	return mt.Code()
}

// Graph returns forward's graph in print(m.graph)'s format (see
// Method.Graph).
func (m *Module) Graph() (string, error) {
	mt, err := m.Method("forward")
	if err != nil {
		return "", err
	}
	return mt.Graph()
}

// Code returns the method's code as PyTorch's m.name.code prints it: the
// compiled graph printed back as TorchScript source by package pyprint
// (python_print), with `def name(self,\n    x: Tensor) -> Tensor:`,
// temporaries _0, _1, ... and tensor constants as CONSTANTS.cN.
func (mt *Method) Code() (string, error) {
	g, err := mt.compiled()
	if err != nil {
		return "", err
	}
	sig := pyprint.Signature{Name: mt.name, Method: true, Params: mt.params()}
	if sig.Params != nil && len(sig.Params) != len(g.Inputs()) {
		sig.Params = nil
	}
	c, err := pyprint.Print(sig, g)
	if err != nil {
		return "", fmt.Errorf("torchscript: %s.%s: %w", mt.m.obj.Type.Name, mt.name, err)
	}
	return c.Text, nil
}

// Graph returns the method's compiled graph in the format of PyTorch's
// print(m.name.graph) (package ir's printer): the node kinds, types, blocks
// and chosen overloads are PyTorch's, and the "# file:line:col" comments
// name the original Python source that the archive's debug_pkl records
// (the archive's code/ file where it has none).
func (mt *Method) Graph() (string, error) {
	g, err := mt.compiled()
	if err != nil {
		return "", err
	}
	g, err = mt.m.debug.withOriginalSources(g)
	if err != nil {
		return "", fmt.Errorf("torchscript: %s.%s: %w", mt.m.obj.Type.Name, mt.name, err)
	}
	return g.String(), nil
}

func (mt *Method) compiled() (*ir.Graph, error) {
	g, err := mt.fn.Compiled()
	if err != nil {
		return nil, fmt.Errorf("torchscript: %s.%s: %w", mt.m.obj.Type.Name, mt.name, err)
	}
	return g, nil
}

// params is the method's signature as the frontend compiled it (names and
// default values), nil when unknown (the graph's input names are used).
func (mt *Method) params() []pyprint.Param {
	if mt.m.cu == nil {
		return nil
	}
	c, err := mt.m.cu.Class(mt.m.obj.Type.Name)
	if err != nil {
		return nil
	}
	fn, ok := c.Method(mt.name)
	if !ok {
		return nil
	}
	out := make([]pyprint.Param, len(fn.Params))
	for i, p := range fn.Params {
		out[i] = pyprint.Param{Name: p.Name, Type: p.Type, Default: p.Default, HasDefault: p.HasDefault}
	}
	return out
}

// MethodNames returns the names of the methods the module's class defines,
// in source order, without its forward pre-hooks and hooks, as PyTorch's
// m._c._method_names() lists them. A module NewModule made has no compiled
// class and lists forward only when its interpreter defines it.
func (m *Module) MethodNames() ([]string, error) {
	if m.cu == nil {
		if _, err := m.Method("forward"); err != nil {
			return nil, nil
		}
		return []string{"forward"}, nil
	}
	c, err := m.cu.Class(m.Type().Name)
	if err != nil {
		return nil, err
	}
	h := m.hooks[m.Type().Name]
	var names []string
	for _, f := range c.Methods {
		if !slices.Contains(h.Pre, f.Name) && !slices.Contains(h.Post, f.Name) {
			names = append(names, f.Name)
		}
	}
	return names, nil
}
