package archive

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/gofx/gofx/torchio/pickle"
)

// DebugInfo is a code file's debug_pkl record decoded: which range of the
// original Python source generated each part of the serialized code.
// PyTorch prints these ranges as the "# file:line:col" comments of a
// loaded module's .graph.
type DebugInfo struct {
	// Records are sorted by Offset, as PyTorch writes them. Record i
	// covers the serialized code's bytes from Records[i].Offset up to the
	// next record's offset.
	Records []DebugRecord
}

// DebugRecord is one row of a debug_pkl: a byte offset in the code file,
// the original source range that generated the code from there on, and the
// range's tag (an index into the inlined call stack tables of mobile
// archives; -1 when it has none, and when the archive predates tags).
type DebugRecord struct {
	Offset int
	Range  SourceRange
	Tag    int64
}

// SourceRange is a range of bytes [Start, End) of a Source.
type SourceRange struct {
	Source     *Source
	Start, End int
}

// Source is a piece of original Python source: Text holds the lines the
// range's function spans (not necessarily the whole file), the first of
// them line StartLine of Filename.
type Source struct {
	Text      string
	Filename  string
	StartLine int
	// NoFilename is true when the archive gives no file name (None, in the
	// format before the string table); PyTorch prints no location then.
	NoFilename bool

	lineStarts []int
}

// Lookup returns the source range that generated the serialized code at
// byte offset off of the code file: the record with the largest Offset not
// after off (PyTorch's findSourceRangeThatGenerated). It reports false when
// off precedes every record.
func (d *DebugInfo) Lookup(off int) (SourceRange, bool) {
	i := sort.Search(len(d.Records), func(i int) bool { return d.Records[i].Offset > off })
	if i == 0 {
		return SourceRange{}, false
	}
	return d.Records[i-1].Range, true
}

// FileLineCol returns where the range starts as PyTorch prints it in a
// graph's "# file:line:col" comments: the file name, the line (StartLine
// plus the line of Text that holds Start, counted from 0) and the column
// (bytes from that line's start). ok is false when the range has no source
// or its source no file name.
func (r SourceRange) FileLineCol() (file string, line, col int, ok bool) {
	s := r.Source
	if s == nil || s.NoFilename {
		return "", 0, 0, false
	}
	if s.lineStarts == nil {
		s.lineStarts = []int{0}
		for i := 0; i < len(s.Text); i++ {
			if s.Text[i] == '\n' {
				s.lineStarts = append(s.lineStarts, i+1)
			}
		}
	}
	off := min(max(r.Start, 0), len(s.Text))
	n := sort.Search(len(s.lineStarts), func(i int) bool { return s.lineStarts[i] > off }) - 1
	return s.Filename, s.StartLine + n, off - s.lineStarts[n], true
}

// String returns "file:line:col" as PyTorch's graph comments print it, or
// "" when FileLineCol has nothing.
func (r SourceRange) String() string {
	f, l, c, ok := r.FileLineCol()
	if !ok {
		return ""
	}
	return fmt.Sprintf("%s:%d:%d", f, l, c)
}

// Text returns the source text of the range, clamped to the source.
func (r SourceRange) Text() string {
	if r.Source == nil {
		return ""
	}
	n := len(r.Source.Text)
	s, e := min(max(r.Start, 0), n), min(max(r.End, 0), n)
	if e < s {
		return ""
	}
	return r.Source.Text[s:e]
}

// formatWithStringTable marks debug_pkl records of PyTorch 1.11 and later.
const formatWithStringTable = "FORMAT_WITH_STRING_TABLE"

// DecodeDebugInfo decodes the bytes of a code/*.py.debug_pkl record in
// either of PyTorch's formats: the string-table format of PyTorch 1.11 and
// later, ("FORMAT_WITH_STRING_TABLE", (str, ...), ((offset, ((text
// indices), filename index, start line), start, end), tag), ...)), and
// the older tuple of (offset, ((text, filename or None, start line), start,
// end)[, tag]) rows. maxText bounds the bytes of source text the records'
// sources may hold in all (the string-table format builds each text from
// pieces); 0 means 256 MiB.
func DecodeDebugInfo(data []byte, maxText int64) (*DebugInfo, error) {
	if maxText <= 0 {
		maxText = 256 << 20
	}
	dec := pickle.Decoder{Find: func(module, name string) (pickle.Value, error) {
		if module == "torch.jit._pickle" && name == "build_intlist" {
			// The text indices are an int list.
			return pickle.Func(func(args pickle.Tuple) (pickle.Value, error) {
				if len(args) != 1 {
					return nil, fmt.Errorf("build_intlist: expected 1 argument, got %d", len(args))
				}
				return args[0], nil
			}), nil
		}
		return nil, fmt.Errorf("global %s.%s in a debug_pkl is %w", module, name, pickle.ErrNotAllowed)
	}}
	v, err := dec.Unpickle(data)
	if err != nil {
		return nil, err
	}
	top, ok := v.(pickle.Tuple)
	if !ok {
		return nil, fmt.Errorf("debug info is %s, not a tuple", pickle.TypeName(v))
	}
	d := &debugDecoder{maxText: maxText, sources: map[any]*Source{}}
	rows := top
	if len(top) == 3 {
		if s, ok := top[0].(string); ok && s == formatWithStringTable {
			table, ok := top[1].(pickle.Tuple)
			if !ok {
				return nil, fmt.Errorf("string table is %s, not a tuple", pickle.TypeName(top[1]))
			}
			d.table = make([]string, len(table))
			for i, e := range table {
				if d.table[i], ok = e.(string); !ok {
					return nil, fmt.Errorf("string table entry %d is %s, not a str", i, pickle.TypeName(e))
				}
			}
			d.withTable = true
			if rows, ok = top[2].(pickle.Tuple); !ok {
				return nil, fmt.Errorf("records are %s, not a tuple", pickle.TypeName(top[2]))
			}
		}
	}
	info := &DebugInfo{Records: make([]DebugRecord, 0, len(rows))}
	for i, row := range rows {
		r, err := d.record(row)
		if err != nil {
			return nil, fmt.Errorf("record %d: %w", i, err)
		}
		info.Records = append(info.Records, r)
	}
	sort.SliceStable(info.Records, func(i, j int) bool { return info.Records[i].Offset < info.Records[j].Offset })
	return info, nil
}

type debugDecoder struct {
	withTable bool
	table     []string
	sources   map[any]*Source
	text      int64 // source bytes built so far
	maxText   int64
}

func asInt(v pickle.Value, what string) (int64, error) {
	i, ok := v.(int64)
	if !ok {
		return 0, fmt.Errorf("%s is %s, not an int", what, pickle.TypeName(v))
	}
	return i, nil
}

func asOffset(v pickle.Value, what string) (int, error) {
	i, err := asInt(v, what)
	if err != nil {
		return 0, err
	}
	if i < 0 || i > 1<<40 {
		return 0, fmt.Errorf("%s %d is out of range", what, i)
	}
	return int(i), nil
}

func (d *debugDecoder) record(v pickle.Value) (DebugRecord, error) {
	t, ok := v.(pickle.Tuple)
	if !ok || (len(t) != 2 && len(t) != 3) {
		return DebugRecord{}, fmt.Errorf("record is %s, not a tuple of 2 or 3", pickle.TypeName(v))
	}
	off, err := asOffset(t[0], "byte offset")
	if err != nil {
		return DebugRecord{}, err
	}
	rec := DebugRecord{Offset: off, Tag: -1}
	rv := t[1]
	if len(t) == 3 {
		// (offset, range, tag) since PyTorch 1.11; (offset, tag, range)
		// before.
		tv := t[2]
		if _, isTuple := t[2].(pickle.Tuple); isTuple {
			rv, tv = t[2], t[1]
		}
		if rec.Tag, err = asInt(tv, "source range tag"); err != nil {
			return DebugRecord{}, err
		}
	}
	rt, ok := rv.(pickle.Tuple)
	if !ok || len(rt) != 3 {
		return DebugRecord{}, fmt.Errorf("source range is %s, not a tuple of 3", pickle.TypeName(rv))
	}
	src, err := d.source(rt[0])
	if err != nil {
		return DebugRecord{}, err
	}
	if rec.Range.Start, err = asOffset(rt[1], "range start"); err != nil {
		return DebugRecord{}, err
	}
	if rec.Range.End, err = asOffset(rt[2], "range end"); err != nil {
		return DebugRecord{}, err
	}
	rec.Range.Source = src
	return rec, nil
}

func (d *debugDecoder) source(v pickle.Value) (*Source, error) {
	t, ok := v.(pickle.Tuple)
	if !ok || len(t) != 3 {
		return nil, fmt.Errorf("source is %s, not a tuple of 3", pickle.TypeName(v))
	}
	// The pickle memoizes shared sources; build each once.
	if s, ok := d.sources[&t[0]]; ok {
		return s, nil
	}
	line, err := asInt(t[2], "starting line")
	if err != nil {
		return nil, err
	}
	if line < 0 || line > 1<<40 {
		return nil, fmt.Errorf("starting line %d is out of range", line)
	}
	s := &Source{StartLine: int(line)}
	if d.withTable {
		var idx []pickle.Value
		switch x := t[0].(type) {
		case *pickle.List:
			idx = x.Items
		case pickle.Tuple:
			idx = x
		default:
			return nil, fmt.Errorf("text pieces are %s, not a list", pickle.TypeName(t[0]))
		}
		var b strings.Builder
		for _, iv := range idx {
			piece, err := d.entry(iv, "text piece")
			if err != nil {
				return nil, err
			}
			if int64(len(piece)) > d.maxText-d.text {
				return nil, fmt.Errorf("source texts exceed %d bytes", d.maxText)
			}
			d.text += int64(len(piece))
			b.WriteString(piece)
		}
		s.Text = b.String()
		if s.Filename, err = d.entry(t[1], "file name"); err != nil {
			return nil, err
		}
	} else {
		if s.Text, ok = t[0].(string); !ok {
			return nil, fmt.Errorf("source text is %s, not a str", pickle.TypeName(t[0]))
		}
		switch f := t[1].(type) {
		case string:
			s.Filename = f
		case pickle.None:
			s.NoFilename = true
		default:
			return nil, fmt.Errorf("file name is %s, not a str or None", pickle.TypeName(t[1]))
		}
	}
	d.sources[&t[0]] = s
	return s, nil
}

func (d *debugDecoder) entry(v pickle.Value, what string) (string, error) {
	i, err := asInt(v, what+" index")
	if err != nil {
		return "", err
	}
	if i < 0 || i >= int64(len(d.table)) {
		return "", fmt.Errorf("%s index %d is outside the string table of %d", what, i, len(d.table))
	}
	return d.table[i], nil
}

var errNoDebug = errors.New("no debug_pkl record")
