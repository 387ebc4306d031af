package frontend

import (
	"strings"

	"github.com/gofx/gofx/torchscript/syntax"
	"github.com/gofx/gofx/torchscript/types"
)

// basicAnnotations are the type names the serialized code writes for the
// basic types.
var basicAnnotations = map[string]types.Type{
	"Tensor": types.Tensor, "int": types.Int, "float": types.Float, "bool": types.Bool,
	"str": types.Str, "complex": types.Complex, "NoneType": types.None, "None": types.None,
	"Any": types.Any, "Device": types.Device, "number": types.Number, "Scalar": types.Number,
	"Generator": types.Generator, "Storage": types.Storage, "Stream": types.Stream,
	"Layout": types.Layout, "ScalarType": types.ScalarType, "MemoryFormat": types.MemoryFormat,
	"QScheme": types.QScheme, "Capsule": types.Capsule, "list": types.AnyList, "tuple": types.AnyTuple,
	"AnyClassType": types.AnyClass, "AnyEnumType": types.AnyEnum,
}

// dottedName returns the dotted name an expression of Names and
// Attributes spells ("__torch__.foo.Bar"), or "" when it is something else.
func dottedName(e syntax.Expr) string {
	switch x := syntax.Unparen(e).(type) {
	case *syntax.Name:
		return x.Name
	case *syntax.Attribute:
		if p := dottedName(x.X); p != "" {
			return p + "." + x.Name
		}
	}
	return ""
}

// parseType resolves a type annotation of the serialized code:
// `List[int]`, `Dict[str, Tensor]`, `Optional[Tensor]`, `Tuple[int, int]`,
// `Tuple[()]`, `Union[...]`, `Final[T]` (the T), and class names
// (`__torch__.foo.Bar`), which are loaded through the unit.
func (f *fileCtx) parseType(e syntax.Expr) (types.Type, error) {
	switch x := syntax.Unparen(e).(type) {
	case *syntax.NoneLit:
		return types.None, nil
	case *syntax.StringLit:
		// a forward reference written as a string
		pe, err := syntax.ParseExpr(f.name, []byte(x.Value))
		if err != nil {
			return nil, f.errorf(x, "bad type annotation %q: %v", x.Value, err)
		}
		return f.parseType(pe)
	case *syntax.Name, *syntax.Attribute:
		name := dottedName(x)
		if t, ok := basicAnnotations[name]; ok {
			return t, nil
		}
		switch name {
		case "torch.Tensor":
			return types.Tensor, nil
		case "torch.device":
			return types.Device, nil
		}
		if strings.HasPrefix(name, "__torch__.") {
			t, err := f.cu.namedType(name)
			if err != nil {
				return nil, f.errorf(x, "%v", err)
			}
			return t, nil
		}
		return nil, f.errorf(x, "unknown type name %q", name)
	case *syntax.Subscript:
		head := dottedName(x.X)
		head = strings.TrimPrefix(head, "typing.")
		var args []types.Type
		if head == "Tuple" && len(x.Index) == 1 {
			if t, ok := syntax.Unparen(x.Index[0]).(*syntax.TupleExpr); ok && len(t.Elts) == 0 {
				return &types.Tuple{Elems: []types.Type{}}, nil
			}
		}
		for _, ie := range x.Index {
			if t, ok := ie.(*syntax.TupleExpr); ok && !t.Parens {
				for _, el := range t.Elts {
					a, err := f.parseType(el)
					if err != nil {
						return nil, err
					}
					args = append(args, a)
				}
				continue
			}
			a, err := f.parseType(ie)
			if err != nil {
				return nil, err
			}
			args = append(args, a)
		}
		want := func(n int) error {
			if len(args) != n {
				return f.errorf(x, "%s takes %d type argument(s), got %d", head, n, len(args))
			}
			return nil
		}
		switch head {
		case "List":
			if err := want(1); err != nil {
				return nil, err
			}
			return &types.List{Elem: args[0]}, nil
		case "Optional":
			if err := want(1); err != nil {
				return nil, err
			}
			return &types.Optional{Elem: args[0]}, nil
		case "Final":
			if err := want(1); err != nil {
				return nil, err
			}
			return args[0], nil
		case "Dict":
			if err := want(2); err != nil {
				return nil, err
			}
			return &types.Dict{Key: args[0], Value: args[1]}, nil
		case "Tuple":
			return &types.Tuple{Elems: args}, nil
		case "Union":
			if len(args) == 0 {
				return nil, f.errorf(x, "Union needs type arguments")
			}
			return types.NewUnion(args...), nil
		case "Future":
			if err := want(1); err != nil {
				return nil, err
			}
			return &types.Future{Elem: args[0]}, nil
		case "Await":
			if err := want(1); err != nil {
				return nil, err
			}
			return &types.Await{Elem: args[0]}, nil
		case "RRef":
			if err := want(1); err != nil {
				return nil, err
			}
			return &types.RRef{Elem: args[0]}, nil
		}
		return nil, f.errorf(x, "unknown generic type %q", head)
	}
	return nil, f.errorf(e, "expected a type annotation")
}
