package graph

import (
	"strconv"
	"strings"

	"github.com/gofx/gofx/node"
)

// Subgraph is a graph that a higher-order operator calls (a branch of
// torch.cond, the cond or body graph of while_loop, the body of map_impl),
// held under Name by the graph whose get_attr node reads it, as
// torch.export holds true_graph_0 as an attribute of its module. Its own
// higher-order operators' graphs are its Subgraphs.
type Subgraph struct {
	Name      string
	Graph     *Graph
	Subgraphs []Subgraph
}

// FindSubgraph returns the subgraph of subs called name.
func FindSubgraph(subs []Subgraph, name string) (*Subgraph, bool) {
	for i := range subs {
		if subs[i].Name == name {
			return &subs[i], true
		}
	}
	return nil, false
}

// TextWithSubgraphs returns the text form of g (Text) followed by a
// section per subgraph, which ParseWithSubgraphs reads back. A section is
// its header line, the subgraph's text and its own sections, indented by
// four spaces, and a closing brace:
//
//	%pred = placeholder "pred"()
//	%x = placeholder "x"()
//	%true_graph_0 = get_attr "true_graph_0"()
//	%false_graph_0 = get_attr "false_graph_0"()
//	%cond = call_function higher_order.cond(%pred, %true_graph_0, %false_graph_0, [%x])
//	%getitem = call_function operator.getitem(%cond, 0)
//	%output = output "output"((%getitem,))
//
//	subgraph true_graph_0 {
//	    %x = placeholder "x"()
//	    %sin = call_function aten.sin.default(%x)
//	    %output = output "output"((%sin,))
//	}
//
//	subgraph false_graph_0 {
//	    ...
//	}
//
// With no subgraphs it is Text.
func (g *Graph) TextWithSubgraphs(subs []Subgraph) string {
	var b strings.Builder
	writeTextTree(&b, g, subs, "")
	return b.String()
}

func writeTextTree(b *strings.Builder, g *Graph, subs []Subgraph, indent string) {
	if g != nil {
		for n := range g.Nodes() {
			b.WriteString(indent)
			writeNodeText(b, n)
			b.WriteByte('\n')
		}
	}
	for _, sg := range subs {
		b.WriteByte('\n')
		b.WriteString(indent)
		b.WriteString("subgraph ")
		if node.IsIdentifier(sg.Name) {
			b.WriteString(sg.Name)
		} else {
			b.WriteString(strconv.Quote(sg.Name))
		}
		b.WriteString(" {\n")
		writeTextTree(b, sg.Graph, sg.Subgraphs, indent+"    ")
		b.WriteString(indent)
		b.WriteString("}\n")
	}
}

// ParseWithSubgraphs reads the text form that TextWithSubgraphs writes: a
// graph followed by its subgraph sections, nested to any depth up to 200.
// A section's nodes refer only to nodes of its own graph; names of
// sections are unique within their graph; nodes of a graph come before
// its sections. Parse refuses text with sections. Errors are *ParseError
// values with the line and column.
func ParseWithSubgraphs(text string, opts ...ParseOption) (*Graph, []Subgraph, error) {
	cfg := defaultParseConfig()
	for _, o := range opts {
		o(&cfg)
	}
	return parseText(text, cfg, true)
}

// openSubgraph reads a section header, "subgraph NAME {", and makes the
// section's graph the one nodes go into.
func (p *parser) openSubgraph() error {
	col := p.tok.col
	if !p.nested {
		return p.errf("a subgraph section: parse text with subgraphs with graph.ParseWithSubgraphs")
	}
	if len(p.stack) >= maxDepth {
		return p.errf("subgraphs nested more than %d deep", maxDepth)
	}
	if err := p.advance(); err != nil {
		return err
	}
	var name string
	switch p.tok.kind {
	case tIdent:
		name = p.tok.text
	case tString:
		name = p.tok.str
	default:
		return p.errf("expected the subgraph's name after subgraph, found %s", describe(p.tok))
	}
	if name == "" {
		return p.errf("empty subgraph name")
	}
	if p.names[name] {
		return p.errf("a second subgraph called %q in this graph", name)
	}
	if err := p.advance(); err != nil {
		return err
	}
	if err := p.expectPunct("{", "after the subgraph's name"); err != nil {
		return err
	}
	if p.tok.kind != tEOL {
		return p.errf("expected end of line after {, found %s", describe(p.tok))
	}
	if p.names == nil {
		p.names = map[string]bool{}
	}
	p.names[name] = true
	p.stack = append(p.stack, frame{g: p.g, subs: p.subs, sawOut: p.sawOut, sawSub: p.sawSub, names: p.names, name: name, line: p.lx.line, col: col})
	p.g, p.subs, p.sawOut, p.sawSub, p.names = New(), nil, false, false, nil
	return nil
}

// closeSubgraph reads the "}" that ends a section and returns to the
// enclosing graph.
func (p *parser) closeSubgraph() error {
	if len(p.stack) == 0 {
		return p.errf("} without a subgraph section to close")
	}
	if err := p.advance(); err != nil {
		return err
	}
	if p.tok.kind != tEOL {
		return p.errf("expected end of line after }, found %s", describe(p.tok))
	}
	f := p.stack[len(p.stack)-1]
	p.stack = p.stack[:len(p.stack)-1]
	sg := Subgraph{Name: f.name, Graph: p.g, Subgraphs: p.subs}
	p.g, p.subs, p.sawOut, p.names = f.g, append(f.subs, sg), f.sawOut, f.names
	p.sawSub = true
	return nil
}
