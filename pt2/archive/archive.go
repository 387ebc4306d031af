package archive

import (
	"archive/zip"
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gofx/gofx/pt2/schema"
	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchio"
	"github.com/gofx/gofx/torchio/pickle"
)

// Layout is a .pt2 container format: which generation of PyTorch's
// container a file is. It is also the type of pt2.Format (pt2.Legacy is
// LayoutZip, pt2.Archive LayoutPT2); the zero value is LayoutZip.
type Layout int

const (
	// LayoutZip is the plain zip of PyTorch ≤ 2.7: serialized_exported_program.json,
	// serialized_state_dict.pt, serialized_constants.pt,
	// serialized_example_inputs.pt (torch.save files) and version.
	LayoutZip Layout = iota
	// LayoutPT2 is the PT2 archive of PyTorch ≥ 2.8: every record under a
	// root folder, archive_format "pt2", models/NAME.json, weights and
	// constants as raw storage records described by JSON configs, sample
	// inputs as torch.save files.
	LayoutPT2
)

// String returns "legacy" or "archive", the names gofx export -format
// takes.
func (l Layout) String() string {
	switch l {
	case LayoutZip:
		return "legacy"
	case LayoutPT2:
		return "archive"
	}
	return fmt.Sprintf("Layout(%d)", int(l))
}

// ParseLayout returns the Layout whose String is s: "legacy" or
// "archive".
func ParseLayout(s string) (Layout, error) {
	for _, l := range []Layout{LayoutZip, LayoutPT2} {
		if s == l.String() {
			return l, nil
		}
	}
	return 0, fmt.Errorf("unknown layout %q: want legacy or archive", s)
}

// Archive is the contents of a .pt2 file.
type Archive struct {
	// Layout is the container format.
	Layout Layout
	// Root is the folder every record sits in: the PT2 archive's root
	// (PyTorch names it after the file; Write uses "archive" if empty).
	// PyTorch writes a ≤ 2.7 zip's records at the top (Root ""); Read also
	// takes them under one folder, and Write puts them at the top.
	Root string
	// Version is what the file read said: the ≤ 2.7 zip's version record
	// (the schema version, "8.2") or the PT2 archive's archive_version
	// ("0"). Write ignores it: a zip gets its program's schema version, a
	// PT2 archive version 0, the one layout this package writes.
	Version string
	// Models are the exported programs with their data, in name order. A
	// ≤ 2.7 zip holds one, named "model".
	Models []*Model
	// ExtraFiles are the extra_files/NAME records of a zip or the
	// extra/NAME records of a PT2 archive, by NAME.
	ExtraFiles map[string][]byte
	// Other holds the records of a PT2 archive this package does not
	// interpret (AOTInductor and ExecuTorch artifacts, ...), by path under
	// Root; they are written back unchanged.
	Other map[string][]byte
}

// Model is one exported program and its data.
type Model struct {
	// Name is the model's name ("model" unless several were packaged).
	Name string
	// Program is the serialized program.
	Program *schema.ExportedProgram
	// Weights are the state dict: parameters and persistent buffers, by
	// fully qualified name. Tensors that shared a storage in the file share
	// one here.
	Weights []Weight
	// Constants are the tensor constants, non-persistent buffers and custom
	// objects.
	Constants []Constant
	// ExampleInputs is the torch.save'd example inputs, normally a
	// pickle.Tuple (args tuple, kwargs dict) of tensors, ints, floats,
	// strings and containers (see torchio.ReadValue); nil if the file has
	// none (Write then writes an empty record, which PyTorch 2.6 and 2.14
	// load as example_inputs None). Args returns its parts.
	ExampleInputs pickle.Value
}

// Weight is one state dict entry.
type Weight struct {
	Name   string
	Tensor *tensor.Tensor
	// IsParam says the entry is an nn.Parameter (a buffer otherwise).
	IsParam bool
	// RequiresGrad is the tensor's requires_grad flag.
	RequiresGrad bool
}

// Constant is one constant: a tensor, or a custom object kept as the raw
// bytes of its record.
type Constant struct {
	Name string
	// Tensor is the constant's value; nil for a custom object.
	Tensor *tensor.Tensor
	// Object is a custom object's record (a torchbind pickle for
	// ObjectKind "custom_obj", a Python pickle for "opaque_obj"), which
	// this package neither reads nor runs; nil for tensors.
	Object     []byte
	ObjectKind string
}

// Model returns the model named name, or nil.
func (a *Archive) Model(name string) *Model {
	for _, m := range a.Models {
		if m.Name == name {
			return m
		}
	}
	return nil
}

// Weight returns the weight named name, or nil.
func (m *Model) Weight(name string) *Weight {
	for i := range m.Weights {
		if m.Weights[i].Name == name {
			return &m.Weights[i]
		}
	}
	return nil
}

// Constant returns the constant named name, or nil.
func (m *Model) Constant(name string) *Constant {
	for i := range m.Constants {
		if m.Constants[i].Name == name {
			return &m.Constants[i]
		}
	}
	return nil
}

// Args returns the example inputs' positional and keyword arguments: the
// file holds a tuple (args tuple, kwargs dict). It fails if the model has
// no example inputs or they have another form.
func (m *Model) Args() ([]pickle.Value, *pickle.Dict, error) {
	t, ok := m.ExampleInputs.(pickle.Tuple)
	if !ok || len(t) != 2 {
		return nil, nil, fmt.Errorf("archive: model %q: example inputs are %s, not an (args, kwargs) pair", m.Name, pickle.TypeName(m.ExampleInputs))
	}
	args, ok := t[0].(pickle.Tuple)
	if !ok {
		return nil, nil, fmt.Errorf("archive: model %q: example args are %s, not a tuple", m.Name, pickle.TypeName(t[0]))
	}
	kw, ok := t[1].(*pickle.Dict)
	if !ok {
		return nil, nil, fmt.Errorf("archive: model %q: example kwargs are %s, not a dict", m.Name, pickle.TypeName(t[1]))
	}
	return args, kw, nil
}

// Limits bound what reading a file may cost.
type Limits struct {
	// MaxRecordBytes is the largest record read (default 16 GiB). Stored
	// records cannot be larger than the file; this bounds compressed ones.
	MaxRecordBytes int64
	// Tensor bounds each nested torch.save file (see torchio.Limits).
	Tensor torchio.Limits
}

// DefaultLimits are the limits Read uses.
var DefaultLimits = Limits{MaxRecordBytes: 16 << 30}

// maxDeflateRatio bounds how much a deflate stream can expand.
const maxDeflateRatio = 1032

// Load reads the .pt2 file at path.
func Load(path string) (*Archive, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("archive: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("archive: %w", err)
	}
	a, err := Read(f, st.Size())
	if err != nil {
		return nil, fmt.Errorf("%w (reading %s)", err, path)
	}
	return a, nil
}

// Read reads a .pt2 file of size bytes in either layout with
// DefaultLimits.
func Read(r io.ReaderAt, size int64) (*Archive, error) {
	return ReadWithLimits(r, size, DefaultLimits)
}

// ReadWithLimits is Read with explicit limits.
func ReadWithLimits(r io.ReaderAt, size int64, lim Limits) (*Archive, error) {
	if lim.MaxRecordBytes <= 0 {
		lim.MaxRecordBytes = DefaultLimits.MaxRecordBytes
	}
	zr, err := zip.NewReader(r, size)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) { // nothing is extracted to disk
		return nil, fmt.Errorf("archive: not a zip file: %w", err)
	}
	if len(zr.File) == 0 {
		return nil, errors.New("archive: empty zip file")
	}
	rd := &reader{lim: lim, ra: r, size: size, files: map[string]*zip.File{}}
	// PyTorch takes the PT2 archive's root from the first record.
	first := zr.File[0].Name
	if i := strings.IndexByte(first, '/'); i > 0 {
		root := first[:i]
		for _, f := range zr.File {
			if f.Name == root+"/archive_format" {
				rd.index(zr, root)
				a, err := rd.readPT2()
				if err != nil {
					return nil, fmt.Errorf("archive: %w", err)
				}
				a.Root = root
				return a, nil
			}
		}
	}
	// The ≤ 2.7 zip: records at the top, or under one folder.
	root := ""
	if !hasFile(zr, "version") && !hasFile(zr, "serialized_exported_program.json") {
		if i := strings.IndexByte(first, '/'); i > 0 && hasFile(zr, first[:i]+"/serialized_exported_program.json") {
			root = first[:i]
		}
	}
	rd.index(zr, root)
	a, err := rd.readZip()
	if err != nil {
		return nil, fmt.Errorf("archive: %w", err)
	}
	a.Root = root
	return a, nil
}

func hasFile(zr *zip.Reader, name string) bool {
	for _, f := range zr.File {
		if f.Name == name {
			return true
		}
	}
	return false
}

type reader struct {
	lim Limits
	ra  io.ReaderAt // the whole file
	// crcBuf is section's buffer for checking CRC-32s.
	crcBuf []byte
	size   int64
	files  map[string]*zip.File // by name under the root
	names  []string             // in file order
}

func (rd *reader) index(zr *zip.Reader, root string) {
	prefix := ""
	if root != "" {
		prefix = root + "/"
	}
	for _, f := range zr.File {
		name, ok := strings.CutPrefix(f.Name, prefix)
		if !ok || name == "" || strings.HasSuffix(name, "/") {
			continue
		}
		if _, dup := rd.files[name]; !dup {
			rd.files[name] = f
			rd.names = append(rd.names, name)
		}
	}
}

// has reports whether the record exists.
func (rd *reader) has(name string) bool { return rd.files[name] != nil }

// size returns a record's declared size.
func (rd *reader) recordSize(name string) int64 {
	return int64(min(rd.files[name].UncompressedSize64, math.MaxInt64))
}

// record returns the bytes of a record after checking its declared sizes
// against the file and the compression method, so that nothing is
// allocated that the file cannot hold.
func (rd *reader) record(name string) ([]byte, error) {
	f, n, err := rd.checked(name)
	if err != nil {
		return nil, err
	}
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("record %s: %w", name, err)
	}
	defer rc.Close()
	b := make([]byte, n)
	if _, err := io.ReadFull(rc, b); err != nil {
		return nil, fmt.Errorf("record %s: %w", name, err)
	}
	var one [1]byte
	if k, err := rc.Read(one[:]); k > 0 {
		return nil, fmt.Errorf("record %s: longer than its declared %d bytes", name, n)
	} else if err != nil && err != io.EOF {
		return nil, fmt.Errorf("record %s: %w", name, err)
	}
	return b, nil
}

// inPlaceMin is the size from which a stored record is read in place
// (section); smaller ones are read whole (record), which reads them once.
const inPlaceMin = 1 << 16

// section returns a stored (uncompressed) record of at least inPlaceMin
// bytes as a section of the file, read in place, after the checks of
// record and its CRC-32; ok is false for a compressed or small record,
// which is read with record.
func (rd *reader) section(name string) (sr *io.SectionReader, ok bool, err error) {
	f, n, err := rd.checked(name)
	if err != nil || f.Method != zip.Store || n < inPlaceMin {
		return nil, false, err
	}
	off, err := f.DataOffset()
	if err != nil {
		return nil, false, fmt.Errorf("record %s: %w", name, err)
	}
	sr = io.NewSectionReader(rd.ra, off, n)
	h := crc32.NewIEEE()
	if rd.crcBuf == nil {
		rd.crcBuf = make([]byte, inPlaceMin)
	}
	if _, err := io.CopyBuffer(h, io.NewSectionReader(rd.ra, off, n), rd.crcBuf); err != nil {
		return nil, false, fmt.Errorf("record %s: %w", name, err)
	}
	if f.CRC32 != 0 && h.Sum32() != f.CRC32 {
		return nil, false, fmt.Errorf("record %s: %w", name, zip.ErrChecksum)
	}
	return sr, true, nil
}

// checked returns a record and its size after checking its declared sizes
// against the file, the limits and the compression method.
func (rd *reader) checked(name string) (*zip.File, int64, error) {
	f := rd.files[name]
	if f == nil {
		return nil, 0, fmt.Errorf("missing record %s", name)
	}
	if f.UncompressedSize64 > math.MaxInt64 || f.CompressedSize64 > math.MaxInt64 {
		return nil, 0, fmt.Errorf("record %s: size out of range", name)
	}
	n := int64(f.UncompressedSize64)
	switch f.Method {
	case zip.Store:
		if f.CompressedSize64 != f.UncompressedSize64 {
			return nil, 0, fmt.Errorf("record %s: stored with compressed size %d but size %d", name, f.CompressedSize64, f.UncompressedSize64)
		}
	case zip.Deflate:
		if f.UncompressedSize64/maxDeflateRatio > f.CompressedSize64+1 {
			return nil, 0, fmt.Errorf("record %s: %d compressed bytes cannot expand to %d", name, f.CompressedSize64, f.UncompressedSize64)
		}
	default:
		return nil, 0, fmt.Errorf("record %s: unsupported compression method %d", name, f.Method)
	}
	if n > rd.lim.MaxRecordBytes {
		return nil, 0, fmt.Errorf("record %s: %d bytes exceed the limit of %d", name, n, rd.lim.MaxRecordBytes)
	}
	off, err := f.DataOffset()
	if err != nil {
		return nil, 0, fmt.Errorf("record %s: %w", name, err)
	}
	if off < 0 || off > rd.size || int64(f.CompressedSize64) > rd.size-off {
		return nil, 0, fmt.Errorf("record %s: %d bytes at offset %d run past the end of the %d-byte file", name, f.CompressedSize64, off, rd.size)
	}
	return f, n, nil
}

// value reads a nested torch.save record; an empty record is nil.
func (rd *reader) value(name string) (pickle.Value, error) {
	// A stored record is read in place: its storages are decoded from
	// the file straight into the tensors, with no copy of the record.
	if sr, ok, err := rd.section(name); err != nil || ok {
		if err != nil || sr.Size() == 0 {
			return nil, err
		}
		v, err := torchio.ReadValueWithLimits(sr, sr.Size(), rd.lim.Tensor)
		if err != nil {
			return nil, fmt.Errorf("record %s: %w", name, err)
		}
		return v, nil
	}
	b, err := rd.record(name)
	if err != nil {
		return nil, err
	}
	if len(b) == 0 {
		return nil, nil
	}
	v, err := torchio.ReadValueWithLimits(bytes.NewReader(b), int64(len(b)), rd.lim.Tensor)
	if err != nil {
		return nil, fmt.Errorf("record %s: %w", name, err)
	}
	return v, nil
}

// tensorDict reads a nested torch.save record holding a dict of tensors
// (a state dict or constants); an empty record is an empty dict.
func (rd *reader) tensorDict(name string) (weights []Weight, err error) {
	v, err := rd.value(name)
	if err != nil || v == nil {
		return nil, err
	}
	d, ok := v.(*pickle.Dict)
	if !ok {
		return nil, fmt.Errorf("record %s: holds %s, not a dict of tensors", name, pickle.TypeName(v))
	}
	for i, k := range d.Keys() {
		ks, ok := k.(string)
		if !ok {
			return nil, fmt.Errorf("record %s: key %v is %s, not a str", name, k, pickle.TypeName(k))
		}
		switch t := d.Values()[i].(type) {
		case *tensor.Tensor:
			weights = append(weights, Weight{Name: ks, Tensor: t})
		case *torchio.Parameter:
			weights = append(weights, Weight{Name: ks, Tensor: t.Data, IsParam: true, RequiresGrad: t.RequiresGrad})
		default:
			return nil, fmt.Errorf("record %s: %q is %s, not a tensor", name, ks, pickle.TypeName(t))
		}
	}
	return weights, nil
}

// checkNames checks that every parameter, buffer, tensor constant and
// custom object the program's signature names is in the model's data.
func (m *Model) checkNames() error {
	have := map[string]bool{}
	for _, w := range m.Weights {
		have[w.Name] = true
	}
	for _, c := range m.Constants {
		have[c.Name] = true
	}
	for i, s := range m.Program.GraphModule.Signature.InputSpecs {
		var name, what string
		switch {
		case s.Parameter != nil:
			name, what = s.Parameter.ParameterName, "parameter"
		case s.Buffer != nil:
			name, what = s.Buffer.BufferName, "buffer"
		case s.TensorConstant != nil:
			name, what = s.TensorConstant.TensorConstantName, "tensor constant"
		case s.CustomObj != nil:
			name, what = s.CustomObj.CustomObjName, "custom object"
		default:
			continue
		}
		if !have[name] {
			return fmt.Errorf("model %q: input_specs[%d]: the program's %s %q is not in the file's weights or constants", m.Name, i, what, name)
		}
	}
	return nil
}

// Save writes a to the file at path (see Write). A PT2 archive without a
// Root is rooted at the file's base name, as PyTorch does. The file is
// removed again if writing fails.
func Save(path string, a *Archive) (err error) {
	if a != nil && a.Layout == LayoutPT2 && a.Root == "" {
		c := *a
		c.Root = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
		a = &c
	}
	// Records stream to the file (a storage record straight from its
	// tensor's memory); nothing holds the whole archive.
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("archive: %w", err)
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	werr := a.Write(bw)
	if werr == nil {
		if werr = bw.Flush(); werr != nil {
			werr = fmt.Errorf("archive: %w", werr)
		}
	}
	if cerr := f.Close(); werr == nil && cerr != nil {
		werr = fmt.Errorf("archive: %w", cerr)
	}
	if werr != nil {
		os.Remove(path)
		return werr
	}
	return nil
}

// Write writes a in its Layout. The output is deterministic: the same
// archive gives the same bytes.
func (a *Archive) Write(w io.Writer) error {
	if a == nil {
		return errors.New("archive: Write of a nil archive")
	}
	var err error
	switch a.Layout {
	case LayoutZip:
		err = a.writeZip(w)
	case LayoutPT2:
		err = a.writePT2(w)
	default:
		err = fmt.Errorf("unknown layout %d", int(a.Layout))
	}
	if err != nil {
		return fmt.Errorf("archive: %w", err)
	}
	return nil
}

// sortedKeys returns m's keys sorted.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
