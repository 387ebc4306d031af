package archive

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/gofx/gofx/torchio"
	"github.com/gofx/gofx/torchio/pickle"
)

// MinVersion and MaxVersion bound the archive format versions read: those
// PyTorch's reader accepts (caffe2/serialize/versions.h,
// kMinSupportedFileFormatVersion and kMaxSupportedFileFormatVersion).
const (
	MinVersion = 1
	MaxVersion = 10
)

// Archive is a torch.jit.save archive, read: its records decoded, the
// code kept as text for the frontend.
type Archive struct {
	// Name is the archive's root folder ("model" for model/data.pkl).
	Name string
	// Version is the file format version of the "version" record (or
	// ".data/version", which archives of version 6 and later may write
	// instead): 3 for most archives, up to 10 when the code calls an
	// operator whose meaning changed (see Upgraders).
	Version int
	// Records are the names of all records under the root folder, in the
	// zip's order.
	Records []string
	// SerializationID is the content of ".data/serialization_id" (PyTorch
	// 1.13 and later write one), "" when absent. PyTorch records nothing
	// else of the producer: no version string.
	SerializationID string
	// BigEndian is true when the "byteorder" record says "big" (storages
	// are then decoded big-endian). PyTorch 2.x writes the record, older
	// versions do not.
	BigEndian bool
	// Legacy is true for an archive of PyTorch 1.0 to 1.2 (model.json; see
	// the package documentation), read into the form of later ones.
	Legacy bool
	// ProtoVersion is model.json's protoVersion (1 to 5) of a Legacy
	// archive, 0 otherwise.
	ProtoVersion int

	// Data is data.pkl decoded: the root module, an *Object whose
	// attributes hold the submodules, parameters, buffers and other
	// attributes.
	Data Value
	// Constants is constants.pkl decoded: the tuple the code's
	// CONSTANTS.c0, CONSTANTS.c1, ... index (tensors, mostly).
	Constants Tuple
	// Code holds the code files (code/**/*.py) by qualifier, sorted.
	Code []*CodeFile
	// Extra holds the extra files (extra/NAME: torch.jit.save's
	// _extra_files) by NAME.
	Extra map[string][]byte

	code map[string]*CodeFile
}

// CodeFile is one code/ record: a Python module of the serialized dialect.
type CodeFile struct {
	// Qualifier is the module's qualified name: the record's path under
	// code/, without ".py", with dots for slashes
	// ("__torch__.torch.nn.modules.linear.___torch_mangle_13" for
	// code/__torch__/torch/nn/modules/linear/___torch_mangle_13.py); its
	// classes are named Qualifier + "." + class name.
	Qualifier string
	// Record is the record's name ("code/__torch__.py").
	Record string
	// Text is the file's content.
	Text string

	debug    []byte // the .debug_pkl record, nil if none
	maxText  int64
	hasDebug bool
}

// HasDebugInfo reports whether the archive has the file's debug_pkl record.
func (f *CodeFile) HasDebugInfo() bool { return f.hasDebug }

// DebugInfo decodes the file's debug_pkl record (the source ranges of
// the original Python source). It is an error when there is none.
func (f *CodeFile) DebugInfo() (*DebugInfo, error) {
	if !f.hasDebug {
		return nil, fmt.Errorf("archive: %s: %w", f.Record, errNoDebug)
	}
	d, err := DecodeDebugInfo(f.debug, f.maxText)
	if err != nil {
		return nil, fmt.Errorf("archive: %s.debug_pkl: %w", f.Record, err)
	}
	return d, nil
}

// Source returns the code file of qualifier ("__torch__.foo"), as
// TorchScript's importer finds the file defining a class: a class
// "__torch__.foo.Bar" is in the file of qualifier "__torch__.foo".
func (a *Archive) Source(qualifier string) (*CodeFile, bool) {
	f, ok := a.code[qualifier]
	return f, ok
}

// Limits bound what reading an archive may cost. Zero fields take the
// defaults.
type Limits struct {
	// Tensor bounds the pickles (data.pkl, constants.pkl: size, memo,
	// stack) and the tensors (storage bytes, elements) as for torch.save
	// files.
	Tensor torchio.Limits
	// MaxText bounds the code, debug_pkl and extra records together, and
	// the source text one debug_pkl may build (default 256 MiB).
	MaxText int64
}

// DefaultLimits are the limits Open and Read use.
var DefaultLimits = Limits{Tensor: torchio.DefaultLimits, MaxText: 256 << 20}

// Open reads the archive file at path.
func Open(path string) (*Archive, error) {
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

// Read reads an archive of size bytes from r with DefaultLimits.
func Read(r io.ReaderAt, size int64) (*Archive, error) {
	return ReadWithLimits(r, size, DefaultLimits)
}

// ReadWithLimits is Read with explicit limits.
func ReadWithLimits(r io.ReaderAt, size int64, lim Limits) (*Archive, error) {
	if lim.MaxText <= 0 {
		lim.MaxText = DefaultLimits.MaxText
	}
	z, err := torchio.OpenArchive(r, size, lim.Tensor)
	if err != nil {
		return nil, fmt.Errorf("archive: %w", err)
	}
	a := &Archive{
		Name:      strings.TrimSuffix(z.Prefix(), "/"),
		Records:   z.Records(),
		BigEndian: z.ByteOrder() == binary.BigEndian,
		Extra:     map[string][]byte{},
		code:      map[string]*CodeFile{},
	}
	if err := a.read(z, lim); err != nil {
		return nil, fmt.Errorf("archive: %w", err)
	}
	return a, nil
}

func (a *Archive) read(z *torchio.Archive, lim Limits) error {
	if z.Has("model.json") {
		return a.readLegacy(z, lim)
	}
	if err := a.readVersion(z); err != nil {
		return err
	}
	if z.Has(".data/serialization_id") {
		b, err := z.ReadRecord(".data/serialization_id", 256)
		if err != nil {
			return err
		}
		a.SerializationID = string(b)
	}
	budget := lim.MaxText
	text := func(name string) ([]byte, error) {
		b, err := z.ReadRecord(name, budget)
		if err != nil {
			if budget < lim.MaxText {
				return nil, fmt.Errorf("%w (the code, debug and extra records together may hold %d bytes: Limits.MaxText)", err, lim.MaxText)
			}
			return nil, err
		}
		budget -= int64(len(b))
		return b, nil
	}
	for _, name := range a.Records {
		switch {
		case strings.HasPrefix(name, "code/") && strings.HasSuffix(name, ".py"):
			b, err := text(name)
			if err != nil {
				return err
			}
			q := strings.ReplaceAll(strings.TrimSuffix(strings.TrimPrefix(name, "code/"), ".py"), "/", ".")
			f := &CodeFile{Qualifier: q, Record: name, Text: string(b), maxText: lim.MaxText}
			if z.Has(name + ".debug_pkl") {
				if f.debug, err = text(name + ".debug_pkl"); err != nil {
					return err
				}
				f.hasDebug = true
			}
			if _, dup := a.code[q]; dup {
				return fmt.Errorf("%s: a second code file for %s", name, q)
			}
			a.code[q] = f
			a.Code = append(a.Code, f)
		case strings.HasPrefix(name, "extra/") && !strings.HasSuffix(name, "/"):
			b, err := text(name)
			if err != nil {
				return err
			}
			a.Extra[strings.TrimPrefix(name, "extra/")] = b
		}
	}
	sortCode(a.Code)

	maxElems := z.Limits().MaxElements
	conv := newConverter(maxElems)
	if !z.Has("data.pkl") {
		return errors.New("archive has no data.pkl")
	}
	v, err := z.Unpickle("data.pkl", "data/", findGlobal)
	if err != nil {
		return err
	}
	if a.Data, err = conv.conv(v, 0); err != nil {
		return fmt.Errorf("data.pkl: %w", err)
	}
	if z.Has("constants.pkl") {
		v, err := z.Unpickle("constants.pkl", "constants/", findGlobal)
		if err != nil {
			return err
		}
		c, err := conv.conv(v, 0)
		if err != nil {
			return fmt.Errorf("constants.pkl: %w", err)
		}
		t, ok := c.(Tuple)
		if !ok {
			return fmt.Errorf("constants.pkl holds %s, not a tuple", typeName(c))
		}
		a.Constants = t
	}
	return nil
}

// sortCode sorts code files by qualifier.
func sortCode(code []*CodeFile) {
	sort.Slice(code, func(i, j int) bool { return code[i].Qualifier < code[j].Qualifier })
}

func (a *Archive) readVersion(z *torchio.Archive) error {
	name := ".data/version"
	if !z.Has(name) {
		name = "version"
	}
	if !z.Has(name) {
		return errors.New("archive has no version record (version or .data/version)")
	}
	b, err := z.ReadRecord(name, 64)
	if err != nil {
		return err
	}
	v, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		return fmt.Errorf("%s: %q is not a version number", name, b)
	}
	if v < MinVersion || v > MaxVersion {
		return fmt.Errorf("%s: format version %d is outside the supported %d to %d (PyTorch's reader supports the same)", name, v, MinVersion, MaxVersion)
	}
	a.Version = v
	return nil
}

// Root returns the root module: Data as an *Object.
func (a *Archive) Root() (*Object, error) {
	o, ok := a.Data.(*Object)
	if !ok {
		return nil, fmt.Errorf("archive: data.pkl holds %s, not a module object", typeName(a.Data))
	}
	return o, nil
}

var _ pickle.Builder = (*Object)(nil)
