package torchio

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchio/pickle"
)

// Limits bound what reading a file may cost. A zero field means the
// default of DefaultLimits.
type Limits struct {
	// MaxPickleBytes is the largest data.pkl accepted (default 256 MiB).
	MaxPickleBytes int64
	// MaxStorageBytes is the most storage bytes read in all (default 1 TiB:
	// storages stored uncompressed cannot be larger than the file anyway;
	// this bounds compressed ones).
	MaxStorageBytes int64
	// MaxElements is the most tensor elements accepted in all (default
	// 2^32). Views over a storage (stride 0, overlapping strides) can
	// declare far more elements than the file's bytes hold; this bounds
	// what materializing them costs.
	MaxElements int64
	// Pickle bounds the unpickler's memo and stack.
	Pickle pickle.Limits
}

// DefaultLimits are the limits Load and Read use.
var DefaultLimits = Limits{
	MaxPickleBytes:  256 << 20,
	MaxStorageBytes: 1 << 40,
	MaxElements:     1 << 32,
}

// maxDeflateRatio bounds how much a deflate stream can expand (the format's
// limit is about 1032:1), which bounds zip bombs.
const maxDeflateRatio = 1032

// maxKeyLen bounds storage keys (torch writes decimal numbers).
const maxKeyLen = 256

// maxNesting bounds the depth of dicts nested in the top-level dict.
const maxNesting = 32

func (l Limits) withDefaults() Limits {
	if l.MaxPickleBytes <= 0 {
		l.MaxPickleBytes = DefaultLimits.MaxPickleBytes
	}
	if l.MaxStorageBytes <= 0 {
		l.MaxStorageBytes = DefaultLimits.MaxStorageBytes
	}
	if l.MaxElements <= 0 {
		l.MaxElements = DefaultLimits.MaxElements
	}
	return l
}

// Load reads the torch.save file at path.
func Load(path string) (*StateDict, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("torchio: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("torchio: %w", err)
	}
	sd, err := Read(f, st.Size())
	if err != nil {
		return nil, fmt.Errorf("%w (reading %s)", err, path)
	}
	return sd, nil
}

// Read reads a torch.save file of size bytes from r with DefaultLimits.
func Read(r io.ReaderAt, size int64) (*StateDict, error) {
	return ReadWithLimits(r, size, DefaultLimits)
}

// legacyMagic starts the pickle of torch.save's pre-1.6 format: PROTO 2,
// LONG1 of the magic number 0x1950a86a20f9469cfc6c.
var legacyMagic = []byte{0x80, 0x02, 0x8a, 0x0a, 0x6c, 0xfc, 0x9c, 0x46, 0xf9, 0x20, 0x6a, 0xa8, 0x50, 0x19}

// ReadWithLimits is Read with explicit limits.
func ReadWithLimits(r io.ReaderAt, size int64, lim Limits) (*StateDict, error) {
	rd, err := openReader(r, size, lim)
	if err != nil {
		return nil, err
	}
	sd, err := rd.read()
	if err != nil {
		return nil, fmt.Errorf("torchio: %w", err)
	}
	return sd, nil
}

// openReader opens the zip archive and indexes its records.
func openReader(r io.ReaderAt, size int64, lim Limits) (*reader, error) {
	lim = lim.withDefaults()
	var head [14]byte
	if n, _ := r.ReadAt(head[:], 0); n == len(head) && bytes.Equal(head[:], legacyMagic) {
		return nil, errors.New("torchio: this is torch.save's legacy (pre-1.6) format, which is not supported; re-save it with torch.save in PyTorch 1.6 or later")
	}
	zr, err := zip.NewReader(r, size)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) { // we never extract to disk
		return nil, fmt.Errorf("torchio: not a torch.save zip archive: %w", err)
	}
	rd := &reader{lim: lim, size: size, files: map[string]*zip.File{}, storages: map[string]*storage{}, bo: binary.LittleEndian, storageDir: "data/"}
	if err := rd.index(zr); err != nil {
		return nil, fmt.Errorf("torchio: %w", err)
	}
	return rd, nil
}

type reader struct {
	lim      Limits
	size     int64
	prefix   string // "<archive>/"
	files    map[string]*zip.File
	storages map[string]*storage
	total    int64 // storage bytes read so far
	bo       binary.ByteOrder
	order    []string // record names in zip order, without the prefix
	// storageDir is the folder of the storage records the pickle being
	// decoded refers to ("data/" for data.pkl); storages are cached under
	// storageDir+key.
	storageDir string
}

// storage is one loaded persistent-id storage.
type storage struct {
	key   string
	dtype tensor.DType
	numel int
	t     *tensor.Tensor // one-dimensional, numel elements
}

func (rd *reader) index(zr *zip.Reader) error {
	if len(zr.File) == 0 {
		return errors.New("empty zip archive")
	}
	// As PyTorch's reader does, take the archive name from the first entry.
	first := zr.File[0].Name
	i := strings.IndexByte(first, '/')
	if i < 0 {
		return fmt.Errorf("first entry %q is not inside an archive folder", first)
	}
	rd.prefix = first[:i+1]
	for _, f := range zr.File {
		name, ok := strings.CutPrefix(f.Name, rd.prefix)
		if !ok {
			continue
		}
		if _, dup := rd.files[name]; !dup {
			rd.files[name] = f
			rd.order = append(rd.order, name)
		}
	}
	return nil
}

// entry returns the bytes of a small record.
func (rd *reader) entry(name string, max int64) ([]byte, error) {
	f := rd.files[name]
	if f == nil {
		return nil, fmt.Errorf("archive has no %s", name)
	}
	rc, n, err := rd.open(f)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	if n > max {
		return nil, fmt.Errorf("%s: %d bytes exceed the limit of %d", name, n, max)
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(rc, b); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := atEOF(rc); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return b, nil
}

// atEOF checks that r has nothing more, which makes the zip reader verify
// the entry's checksum.
func atEOF(r io.Reader) error {
	var b [1]byte
	n, err := r.Read(b[:])
	if n > 0 {
		return errors.New("entry is longer than its declared size")
	}
	if err == io.EOF {
		return nil
	}
	if err == nil {
		return atEOF(r)
	}
	return err
}

// open opens a zip entry after checking its declared sizes against the file
// and the compression method.
func (rd *reader) open(f *zip.File) (io.ReadCloser, int64, error) {
	if f.UncompressedSize64 > math.MaxInt64 || f.CompressedSize64 > math.MaxInt64 {
		return nil, 0, fmt.Errorf("%s: size out of range", f.Name)
	}
	n := int64(f.UncompressedSize64)
	switch f.Method {
	case zip.Store:
		if f.CompressedSize64 != f.UncompressedSize64 {
			return nil, 0, fmt.Errorf("%s: stored entry has compressed size %d but size %d", f.Name, f.CompressedSize64, f.UncompressedSize64)
		}
	case zip.Deflate:
		if f.UncompressedSize64/maxDeflateRatio > f.CompressedSize64+1 {
			return nil, 0, fmt.Errorf("%s: %d compressed bytes cannot expand to %d", f.Name, f.CompressedSize64, f.UncompressedSize64)
		}
	default:
		return nil, 0, fmt.Errorf("%s: unsupported compression method %d", f.Name, f.Method)
	}
	off, err := f.DataOffset()
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", f.Name, err)
	}
	if off < 0 || off > rd.size || int64(f.CompressedSize64) > rd.size-off {
		return nil, 0, fmt.Errorf("%s: %d bytes at offset %d run past the end of the %d-byte file", f.Name, f.CompressedSize64, off, rd.size)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", f.Name, err)
	}
	return rc, n, nil
}

// read reads the file as a state dict.
func (rd *reader) read() (*StateDict, error) {
	v, err := rd.unpickle()
	if err != nil {
		return nil, err
	}
	sd := NewStateDict()
	if err := collect(sd, "", v, 0); err != nil {
		return nil, fmt.Errorf("data.pkl: %w", err)
	}
	var total int64
	for name, t := range sd.All() {
		total += int64(t.Numel())
		if total > rd.lim.MaxElements {
			return nil, fmt.Errorf("data.pkl: tensor %q: the tensors hold more than %d elements in all (Limits.MaxElements)", name, rd.lim.MaxElements)
		}
	}
	return sd, nil
}

// unpickle checks the archive's records and decodes data.pkl.
func (rd *reader) unpickle() (pickle.Value, error) {
	if _, ok := rd.files["constants.pkl"]; ok {
		if _, ok := rd.files["code/"]; ok || rd.hasCode() {
			return nil, errors.New("this is a TorchScript archive (torch.jit.save), not a torch.save file")
		}
	}
	if err := rd.checkVersion(); err != nil {
		return nil, err
	}
	if err := rd.readByteOrder(); err != nil {
		return nil, err
	}
	data, err := rd.entry("data.pkl", rd.lim.MaxPickleBytes)
	if err != nil {
		return nil, err
	}
	dec := pickle.Decoder{Find: findGlobal, PersistentLoad: rd.persistentLoad, Limits: rd.lim.Pickle}
	v, err := dec.Unpickle(data)
	if err != nil {
		return nil, fmt.Errorf("data.pkl: %w", err)
	}
	return v, nil
}

// readByteOrder sets rd.bo from the "byteorder" record, if there is one.
func (rd *reader) readByteOrder() error {
	if b, ok := rd.files["byteorder"]; !ok || b == nil {
		return nil
	}
	data, err := rd.entry("byteorder", 16)
	if err != nil {
		return err
	}
	switch string(data) {
	case "little":
		rd.bo = binary.LittleEndian
	case "big":
		rd.bo = binary.BigEndian
	default:
		return fmt.Errorf("byteorder: unknown byte order %q", data)
	}
	return nil
}

func (rd *reader) hasCode() bool {
	for name := range rd.files {
		if strings.HasPrefix(name, "code/") {
			return true
		}
	}
	return false
}

func (rd *reader) checkVersion() error {
	name := ".data/version"
	if rd.files[name] == nil {
		name = "version"
	}
	if rd.files[name] == nil {
		return nil // PyTorch requires it; we need nothing from it
	}
	b, err := rd.entry(name, 64)
	if err != nil {
		return err
	}
	v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil || v < 1 {
		return fmt.Errorf("%s: invalid format version %q", name, b)
	}
	return nil
}

// persistentLoad resolves ('storage', storage_type, key, location, numel).
func (rd *reader) persistentLoad(pid pickle.Value) (pickle.Value, error) {
	t, ok := pid.(pickle.Tuple)
	if !ok || len(t) == 0 {
		return nil, fmt.Errorf("persistent id must be a tuple, got %s", pickle.TypeName(pid))
	}
	if s, ok := t[0].(string); !ok || s != "storage" {
		return nil, fmt.Errorf("unsupported persistent id kind (%s %q)", pickle.TypeName(t[0]), short(s))
	}
	if len(t) != 5 {
		return nil, fmt.Errorf("storage persistent id has %d fields, want 5", len(t))
	}
	st, ok := t[1].(storageType)
	if !ok {
		return nil, fmt.Errorf("storage type is %s, not a torch storage class", pickle.TypeName(t[1]))
	}
	key, ok := t[2].(string)
	if !ok {
		return nil, fmt.Errorf("storage key is %s, not a str", pickle.TypeName(t[2]))
	}
	if len(key) > maxKeyLen {
		return nil, fmt.Errorf("storage key of %d bytes is longer than %d", len(key), maxKeyLen)
	}
	if _, ok := t[3].(string); !ok {
		return nil, fmt.Errorf("storage location is %s, not a str", pickle.TypeName(t[3]))
	}
	numel, err := toInt(t[4], "storage size")
	if err != nil {
		return nil, err
	}
	if s, ok := rd.storages[rd.storageDir+key]; ok {
		if s.dtype != st.dtype || s.numel != numel {
			return nil, fmt.Errorf("storage %q is used as %d %v elements and as %d %v elements", key, s.numel, s.dtype, numel, st.dtype)
		}
		return s, nil
	}
	s, err := rd.loadStorage(key, st.dtype, numel)
	if err != nil {
		return nil, err
	}
	rd.storages[rd.storageDir+key] = s
	return s, nil
}

func (rd *reader) loadStorage(key string, dt tensor.DType, numel int) (*storage, error) {
	name := rd.storageDir + key
	f := rd.files[name]
	if f == nil && numel == 0 {
		// PyTorch reads no record for an empty storage.
		t, err := readStorage(bytes.NewReader(nil), dt, 0, rd.bo)
		if err != nil {
			return nil, err
		}
		return &storage{key: key, dtype: dt, t: t}, nil
	}
	if f == nil {
		return nil, fmt.Errorf("storage %q: archive has no %s", key, name)
	}
	rc, n, err := rd.open(f)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	size := int64(dt.Size())
	if int64(numel) > n/size {
		return nil, fmt.Errorf("storage %q: %d %v elements need %d bytes but %s has %d", key, numel, dt, int64(numel)*size, name, n)
	}
	nbytes := int64(numel) * size
	if nbytes > rd.lim.MaxStorageBytes-rd.total {
		return nil, fmt.Errorf("storage %q: storages exceed the limit of %d bytes", key, rd.lim.MaxStorageBytes)
	}
	rd.total += nbytes
	t, err := readStorage(rc, dt, numel, rd.bo)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if nbytes == n {
		if err := atEOF(rc); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	return &storage{key: key, dtype: dt, numel: numel, t: t}, nil
}

// collect adds the tensors of v to sd under prefix.
func collect(sd *StateDict, prefix string, v pickle.Value, depth int) error {
	add := func(name string, t *tensor.Tensor) error {
		if _, dup := sd.Get(name); dup {
			return fmt.Errorf("duplicate name %q", name)
		}
		sd.Set(name, t)
		return nil
	}
	join := func(k string) string {
		if prefix == "" {
			return k
		}
		return prefix + "." + k
	}
	if p, ok := v.(*Parameter); ok {
		v = p.Data
	}
	switch v := v.(type) {
	case *tensor.Tensor:
		return add(prefix, v)
	case *pickle.Dict:
		if depth >= maxNesting {
			return fmt.Errorf("dicts nested more than %d deep", maxNesting)
		}
		for i, k := range v.Keys() {
			ks, ok := k.(string)
			if !ok {
				return fmt.Errorf("key %v is %s, not a str", k, pickle.TypeName(k))
			}
			val := v.Values()[i]
			switch val.(type) {
			case *tensor.Tensor, *Parameter, *pickle.Dict:
				if err := collect(sd, join(ks), val, depth+1); err != nil {
					return err
				}
			default:
				return fmt.Errorf("value of %q is %s, not a tensor", join(ks), pickle.TypeName(val))
			}
		}
		return nil
	case *pickle.List:
		if depth > 0 {
			break
		}
		return collectSeq(sd, v.Items, add)
	case pickle.Tuple:
		if depth > 0 {
			break
		}
		return collectSeq(sd, v, add)
	}
	if prefix == "" {
		return fmt.Errorf("the file holds %s, not a state dict or tensors", pickle.TypeName(v))
	}
	return fmt.Errorf("value of %q is %s, not a tensor", prefix, pickle.TypeName(v))
}

func collectSeq(sd *StateDict, items []pickle.Value, add func(string, *tensor.Tensor) error) error {
	for i, it := range items {
		if p, ok := it.(*Parameter); ok {
			it = p.Data
		}
		t, ok := it.(*tensor.Tensor)
		if !ok {
			return fmt.Errorf("item %d is %s, not a tensor", i, pickle.TypeName(it))
		}
		if err := add(strconv.Itoa(i), t); err != nil {
			return err
		}
	}
	return nil
}

// short returns s cut to a length fit for an error message.
func short(s string) string {
	if len(s) > 64 {
		return s[:64] + "..."
	}
	return s
}
