package nn

import "strings"

// ExtraReprer is implemented by modules that print their
// hyper-parameters, as PyTorch's extra_repr.
type ExtraReprer interface {
	ExtraRepr() string
}

// Repr prints m's module tree as PyTorch's repr(module) does:
//
//	Sequential(
//	  (0): Linear(in_features=16, out_features=32, bias=True)
//	  (1): ReLU()
//	)
func Repr(m Module) string {
	var sb strings.Builder
	repr(&sb, m, "")
	return sb.String()
}

func repr(sb *strings.Builder, m Module, indent string) {
	b := adopt(m)
	sb.WriteString(b.TypeName())
	sb.WriteString("(")
	extra := ""
	if e, ok := m.(ExtraReprer); ok {
		extra = e.ExtraRepr()
	}
	if len(b.children) == 0 {
		sb.WriteString(extra)
		sb.WriteString(")")
		return
	}
	sb.WriteString("\n")
	if extra != "" {
		sb.WriteString(indent + "  " + extra + "\n")
	}
	for _, c := range b.children {
		sb.WriteString(indent + "  (" + c.name + "): ")
		repr(sb, c.m, indent+"  ")
		sb.WriteString("\n")
	}
	sb.WriteString(indent + ")")
}
