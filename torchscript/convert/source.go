package convert

import (
	"fmt"
	"strings"

	"github.com/gofx/gofx/internal/record"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/torchscript/archive"
	"github.com/gofx/gofx/torchscript/ir"
	"github.com/gofx/gofx/torchscript/runtime"
	"github.com/gofx/gofx/torchscript/syntax"
)

// location is where a TorchScript node comes from in the user's Python
// source, as the archive's debug_pkl records it.
type location struct {
	file string
	line int
	col  int
	code string // the source line, trimmed ("" when unknown)
}

// sources maps the source ranges of IR nodes (positions in the archive's
// serialized code, or already in the original source) to the original
// Python source through the archive's debug_pkl records.
type sources struct {
	arch  *archive.Archive
	files map[string]*codeInfo // by record name ("code/__torch__.py")
	// orig holds every original source the debug records name, by file
	// name: for a node whose range already names the original file.
	orig    map[string][]*archive.Source
	decoded bool
	memo    map[ir.SourceRange]location
}

type codeInfo struct {
	file  *archive.CodeFile
	debug *archive.DebugInfo // nil when the archive has none for the file
	tried bool
}

func newSources(a *archive.Archive) *sources {
	s := &sources{arch: a, files: map[string]*codeInfo{}, memo: map[ir.SourceRange]location{}}
	if a != nil {
		for _, f := range a.Code {
			s.files[f.Record] = &codeInfo{file: f}
		}
	}
	return s
}

// debugOf decodes the debug_pkl of a code file once (nil when it has none
// or it does not decode: the serialized location is used then).
func (s *sources) debugOf(ci *codeInfo) *archive.DebugInfo {
	if !ci.tried {
		ci.tried = true
		if ci.file.HasDebugInfo() {
			ci.debug, _ = ci.file.DebugInfo()
		}
	}
	return ci.debug
}

// locate returns the original location of r: through the debug_pkl of
// the code file r names, or, when r names an original file, that file's
// line in the debug records' sources; the serialized location with its
// code line when the archive has no debug information for it.
func (s *sources) locate(r *ir.SourceRange) (location, bool) {
	if r == nil || r.File == "" && r.Line == 0 {
		return location{}, false
	}
	if l, ok := s.memo[*r]; ok {
		return l, l.file != ""
	}
	l := s.find(r)
	s.memo[*r] = l
	return l, l.file != ""
}

func (s *sources) find(r *ir.SourceRange) location {
	if ci, ok := s.files[r.File]; ok {
		// TorchScript's columns count from 0 in printed graphs, the
		// frontend's from 1 (syntax.Pos): accept both.
		col := r.Col
		if col < 1 {
			col = 1
		}
		off := syntax.Pos{Line: r.Line, Col: col}.Offset([]byte(ci.file.Text))
		// A record without a file name is PyTorch's empty range (code the
		// serializer made up, as a call of a scripted function): the
		// serialized line stands for it, as PyTorch prints it.
		if d := s.debugOf(ci); d != nil && off >= 0 {
			if sr, ok := d.Lookup(off); ok {
				if f, line, c, ok := sr.FileLineCol(); ok && f != "" {
					return location{file: f, line: line, col: c, code: lineAt(sr.Source.Text, sr.Start)}
				}
			}
		}
		code := ""
		if off >= 0 {
			code = lineAt(ci.file.Text, off)
		}
		return location{file: r.File, line: r.Line, col: r.Col, code: code}
	}
	// A range in the original source already (a graph printed by
	// PyTorch, or a frontend that maps ranges itself): its line's text
	// from the debug records' sources.
	s.decodeAll()
	for _, src := range s.orig[r.File] {
		n := r.Line - src.StartLine
		if n < 0 {
			continue
		}
		lines := strings.Split(src.Text, "\n")
		if n < len(lines) {
			return location{file: r.File, line: r.Line, col: r.Col, code: strings.TrimSpace(lines[n])}
		}
	}
	return location{file: r.File, line: r.Line, col: r.Col}
}

func (s *sources) decodeAll() {
	if s.decoded {
		return
	}
	s.decoded = true
	s.orig = map[string][]*archive.Source{}
	seen := map[*archive.Source]bool{}
	for _, ci := range s.files {
		d := s.debugOf(ci)
		if d == nil {
			continue
		}
		for _, rec := range d.Records {
			src := rec.Range.Source
			if src == nil || src.NoFilename || src.Filename == "" || seen[src] {
				continue
			}
			seen[src] = true
			s.orig[src.Filename] = append(s.orig[src.Filename], src)
		}
	}
}

// lineAt returns the line of text holding byte off, trimmed.
func lineAt(text string, off int) string {
	off = min(max(off, 0), len(text))
	start := strings.LastIndexByte(text[:off], '\n') + 1
	end := strings.IndexByte(text[off:], '\n')
	if end < 0 {
		end = len(text)
	} else {
		end += off
	}
	return strings.TrimSpace(text[start:end])
}

// callFrame is a call being inlined: its call node, and the name of the
// function it calls.
type callFrame struct {
	site *ir.Node
	fn   string
}

// stackTrace is n's stack_trace as torch.export records one from Python
// code: a traceback frame ("  File \"m.py\", line 7, in forward" and the
// line's code) for each inlined call from the converted method down, and
// one for n; "" when no range of them is known.
func (c *converter) stackTrace(n *ir.Node) string {
	var b strings.Builder
	fn := c.method
	for _, f := range c.calls {
		c.writeFrame(&b, f.site, fn)
		fn = f.fn
	}
	c.writeFrame(&b, n, fn)
	return b.String()
}

func (c *converter) writeFrame(b *strings.Builder, n *ir.Node, fn string) {
	l, ok := c.src.locate(n.Source)
	if !ok {
		return
	}
	fmt.Fprintf(b, "  File %q, line %d, in %s\n", l.file, l.line, fn)
	if l.code != "" {
		fmt.Fprintf(b, "    %s\n", l.code)
	}
}

// where is the node's source for errors: the original file:line:col and
// the serialized code's position, as far as they are known.
func (c *converter) where(n *ir.Node) string {
	if n.Source == nil {
		return ""
	}
	ser := n.Source.String()
	l, ok := c.src.locate(n.Source)
	if !ok || l.file == n.Source.File {
		return ser
	}
	return fmt.Sprintf("%s:%d:%d (%s)", l.file, l.line, l.col, ser)
}

// provenance makes the nodes export records while f runs carry n's
// stack_trace (the recorder's Source), when a recorder is known from
// the traced values in.
func (c *converter) provenance(n *ir.Node, in []any, f func() error) error {
	if c.rec == nil {
		for _, v := range in {
			if c.rec = recorderIn(v); c.rec != nil {
				break
			}
		}
		if c.rec == nil {
			return f()
		}
	}
	src := &node.Node{}
	if st := c.stackTrace(n); st != "" {
		node.StackTrace.Set(&src.Meta, st)
	}
	saved := c.rec.Source
	c.rec.Source = src
	defer func() { c.rec.Source = saved }()
	return f()
}

// recorderIn returns the recorder a traced value of v belongs to.
func recorderIn(v any) *record.Recorder {
	switch x := v.(type) {
	case nn.Value:
		if p, ok := x.Any().(*record.Proxy); ok {
			return record.RecorderOf(p)
		}
		if x.IsTuple() {
			for _, e := range x.Tuple() {
				if r := recorderIn(e); r != nil {
					return r
				}
			}
		}
	case *predicate:
		return recorderIn(x.t)
	case *runtime.List:
		for _, e := range x.Items {
			if r := recorderIn(e); r != nil {
				return r
			}
		}
	case *runtime.Tuple:
		for _, e := range x.Items {
			if r := recorderIn(e); r != nil {
				return r
			}
		}
	}
	return nil
}
