package torchio

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"strconv"
	"unicode/utf8"

	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchio/pickle"
)

// archiveName is the folder of every entry, as torch.save has used since
// PyTorch 2.0 (1.13 used the file's base name; readers ignore it).
const archiveName = "archive"

// alignment is the byte alignment of storage data in the file, as
// torch.save writes it, so that readers may map storages in place.
const alignment = 64

// Save writes sd to the file at path in torch.save's format. The file is
// removed again if writing fails.
func Save(path string, sd *StateDict) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("torchio: %w", err)
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("torchio: %w", cerr)
		}
		if err != nil {
			os.Remove(path)
		}
	}()
	return Write(f, sd)
}

// Write writes sd to w in torch.save's zip format: torch.load returns an
// OrderedDict with sd's names, in order, and tensors with the same dtypes,
// shapes, strides, storage offsets and values. Tensors that share a storage
// share it in the file; each storage is written whole, even when only part
// of it is viewed. Names must be valid UTF-8; meta tensors cannot be saved.
func Write(w io.Writer, sd *StateDict) error {
	if err := write(w, sd); err != nil {
		return fmt.Errorf("torchio: %w", err)
	}
	return nil
}

// savedStorage is one storage to write.
type savedStorage struct {
	key string
	t   *tensor.Tensor // any tensor over the storage
	n   int            // elements in the storage
}

func write(w io.Writer, sd *StateDict) error {
	if sd == nil {
		sd = NewStateDict()
	}
	// Give every distinct storage a key, in order of first use.
	var storages []*savedStorage
	byID := map[any]*savedStorage{}
	of := make([]*savedStorage, sd.Len())
	for i, t := range sd.tensors {
		name := sd.names[i]
		if !utf8.ValidString(name) {
			return fmt.Errorf("name %q is not valid UTF-8", name)
		}
		if t.IsMeta() {
			return fmt.Errorf("%q is a meta tensor, which has no data to save", name)
		}
		if !t.DType().Valid() {
			return fmt.Errorf("%q has invalid dtype %v", name, t.DType())
		}
		id, n := storageOf(t)
		s := byID[id]
		if s == nil || id == nil {
			s = &savedStorage{key: strconv.Itoa(len(storages)), t: t, n: n}
			storages = append(storages, s)
			if id != nil {
				byID[id] = s
			}
		}
		of[i] = s
	}

	var pkl bytes.Buffer
	if err := writePickle(&pkl, sd, of); err != nil {
		return err
	}

	return writeArchive(w, pkl.Bytes(), storages)
}

// writeArchive writes the records of a torch.save zip: data.pkl, byteorder,
// one data/<key> per storage, version.
func writeArchive(w io.Writer, pkl []byte, storages []*savedStorage) error {
	cw := &countWriter{w: w}
	zw := zip.NewWriter(cw)
	if err := writeEntry(zw, cw, "data.pkl", int64(len(pkl)), func(w io.Writer) error {
		_, err := w.Write(pkl)
		return err
	}); err != nil {
		return err
	}
	if err := writeEntry(zw, cw, "byteorder", 6, func(w io.Writer) error {
		_, err := io.WriteString(w, "little")
		return err
	}); err != nil {
		return err
	}
	for _, s := range storages {
		if err := writeEntry(zw, cw, "data/"+s.key, int64(s.n)*int64(s.t.DType().Size()), func(w io.Writer) error {
			return writeStorage(w, s.t)
		}); err != nil {
			return err
		}
	}
	if err := writeEntry(zw, cw, "version", 2, func(w io.Writer) error {
		_, err := io.WriteString(w, "3\n")
		return err
	}); err != nil {
		return err
	}
	return zw.Close()
}

// writePickle writes data.pkl: an OrderedDict of _rebuild_tensor_v2 calls
// over persistent-id storages, as torch.save pickles a state dict.
func writePickle(w io.Writer, sd *StateDict, of []*savedStorage) error {
	e := pickle.NewEncoder(w)
	e.Global("collections", "OrderedDict")
	e.EmptyTuple()
	e.Reduce()
	if sd.Len() > 0 {
		e.Mark()
		for i, t := range sd.tensors {
			s := of[i]
			e.String(sd.names[i])
			pickleTensor(e, t, s)
		}
		e.SetItems()
	}
	return e.Stop()
}

// countWriter counts the bytes written through it.
type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// writeEntry writes one stored (uncompressed) entry of size bytes whose
// data starts at a multiple of alignment, padding the local header's extra
// field as torch.save does. body is called twice, first to compute the
// checksum, so that the header carries the sizes and no data descriptor
// follows the data: the next entry's offset is then known exactly.
func writeEntry(zw *zip.Writer, cw *countWriter, name string, size int64, body func(io.Writer) error) error {
	if err := zw.Flush(); err != nil {
		return err
	}
	crc := crc32.NewIEEE()
	if err := body(crc); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	name = archiveName + "/" + name
	const localHeaderLen = 30
	const padHeaderLen = 4
	start := cw.n + localHeaderLen + int64(len(name)) + padHeaderLen
	pad := (alignment - start%alignment) % alignment
	extra := make([]byte, padHeaderLen+pad)
	binary.LittleEndian.PutUint16(extra, 0x4246) // "FB", PyTorch's padding tag
	binary.LittleEndian.PutUint16(extra[2:], uint16(pad))
	for i := padHeaderLen; i < len(extra); i++ {
		extra[i] = 'Z'
	}
	fw, err := zw.CreateRaw(&zip.FileHeader{
		Name: name, Method: zip.Store, Extra: extra, CRC32: crc.Sum32(),
		CompressedSize64: uint64(size), UncompressedSize64: uint64(size),
	})
	if err != nil {
		return err
	}
	cnt := &countWriter{w: fw}
	if err := body(cnt); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if cnt.n != size {
		return fmt.Errorf("%s: wrote %d bytes, expected %d", name, cnt.n, size)
	}
	return nil
}
