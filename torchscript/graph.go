package torchscript

import (
	"strings"
	"sync"

	"github.com/gofx/gofx/torchscript/archive"
	"github.com/gofx/gofx/torchscript/ir"
	"github.com/gofx/gofx/torchscript/syntax"
)

// debugRanges maps places in an archive's code files to the ranges of the
// original Python source that generated them (the files' debug_pkl
// records), as PyTorch's Source::findSourceRangeThatGenerated does when it
// prints a loaded module's graph.
type debugRanges struct {
	a     *archive.Archive
	mu    sync.Mutex
	files map[string]*debugFile
}

// debugFile is one code file's text and decoded debug_pkl (info nil when
// the archive has none or it does not decode).
type debugFile struct {
	text []byte
	info *archive.DebugInfo
}

func newDebugRanges(a *archive.Archive) *debugRanges {
	return &debugRanges{a: a, files: map[string]*debugFile{}}
}

// file returns the code file named name ("code/__torch__/foo.py"), nil when
// the archive has none.
func (d *debugRanges) file(name string) *debugFile {
	d.mu.Lock()
	defer d.mu.Unlock()
	if f, ok := d.files[name]; ok {
		return f
	}
	var df *debugFile
	q, ok := strings.CutPrefix(name, "code/")
	if q, ok2 := strings.CutSuffix(q, ".py"); ok && ok2 {
		if cf, ok := d.a.Source(strings.ReplaceAll(q, "/", ".")); ok {
			df = &debugFile{text: []byte(cf.Text)}
			if cf.HasDebugInfo() {
				if info, err := cf.DebugInfo(); err == nil {
					df.info = info
				}
			}
		}
	}
	d.files[name] = df
	return df
}

// original returns the source range PyTorch prints for a node the frontend
// compiled from r (a place in a code file): the original Python range the
// file's debug_pkl records for it, nil when that range has no file name
// (code the serializer printed outside any node, traced code without a
// Python source), or r itself when the archive has no debug_pkl for the
// file.
func (d *debugRanges) original(r *ir.SourceRange) *ir.SourceRange {
	f := d.file(r.File)
	if f == nil || f.info == nil {
		return r
	}
	off := syntax.Pos{Line: r.Line, Col: r.Col}.Offset(f.text)
	if off < 0 {
		return r
	}
	orig, ok := f.info.Lookup(off)
	if !ok {
		return r
	}
	file, line, col, ok := orig.FileLineCol()
	if !ok {
		return nil
	}
	return &ir.SourceRange{File: file, Line: line, Col: col}
}

// withOriginalSources returns a copy of g whose nodes' source ranges are
// the original Python source's (debugRanges.original).
func (d *debugRanges) withOriginalSources(g *ir.Graph) (*ir.Graph, error) {
	if d == nil {
		return g, nil
	}
	c, err := g.Copy()
	if err != nil {
		return nil, err
	}
	c.Walk(func(n *ir.Node) {
		switch {
		case n.Source == nil:
		case noRange[n.Kind]:
			n.Source = nil
		default:
			n.Source = d.original(n.Source)
		}
	})
	return c, nil
}

// noRange are the node kinds ir_emitter creates without a source range
// (Graph::create with no setSourceRange), which print no comment; the
// frontend gives them the statement's range for run-time errors.
var noRange = map[string]bool{
	"prim::TupleIndex": true, "prim::EnumName": true, "prim::EnumValue": true,
	"prim::SetAttr": true, "prim::Enter": true, "prim::Exit": true,
	"prim::ListUnpack": true, "prim::TupleUnpack": true, "prim::unchecked_cast": true,
}
