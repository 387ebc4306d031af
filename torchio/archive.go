package torchio

import (
	"encoding/binary"
	"fmt"
	"io"
	"strings"

	"github.com/gofx/gofx/torchio/pickle"
)

// Archive is a zip archive in torch.save's container layout (one root
// folder, pickles whose tensors live in storage records beside them), opened
// to read its records one at a time. TorchScript's torch.jit.save archives
// use this container too: their readers (torchscript/archive) take
// data.pkl, constants.pkl and the code records from an Archive.
//
// An Archive is not safe for concurrent use. Reading is as safe as Read's: records are size-checked before anything is
// allocated (see Limits), and pickles go through the restricted unpickler.
type Archive struct {
	rd *reader
}

// OpenArchive opens the zip archive of size bytes in r with limits lim (zero
// fields take DefaultLimits' values) and reads its "byteorder" record, if it
// has one. The root folder is the first entry's, as PyTorch takes it.
func OpenArchive(r io.ReaderAt, size int64, lim Limits) (*Archive, error) {
	rd, err := openReader(r, size, lim)
	if err != nil {
		return nil, err
	}
	if err := rd.readByteOrder(); err != nil {
		return nil, fmt.Errorf("torchio: %w", err)
	}
	return &Archive{rd: rd}, nil
}

// Prefix returns the root folder's name with its trailing slash
// ("model/"). Record names never include it.
func (a *Archive) Prefix() string { return a.rd.prefix }

// Records returns the names of the archive's records under the root
// folder, without the prefix, in the zip's order. Entries outside the root
// folder are ignored, as PyTorch ignores them.
func (a *Archive) Records() []string { return append([]string(nil), a.rd.order...) }

// Has reports whether the archive has the record name.
func (a *Archive) Has(name string) bool { return a.rd.files[name] != nil }

// ByteOrder returns the byte order of the storage records: big-endian if
// the "byteorder" record says "big", little-endian otherwise.
func (a *Archive) ByteOrder() binary.ByteOrder { return a.rd.bo }

// Limits returns the limits the archive was opened with, defaults filled
// in.
func (a *Archive) Limits() Limits { return a.rd.lim }

// ReadRecord returns the bytes of the record name. A record longer than max
// bytes is an error, found before its bytes are read; so are a record that
// runs past the end of the file, a compressed record that claims more than
// deflate can expand to, and a bad checksum.
func (a *Archive) ReadRecord(name string, max int64) ([]byte, error) {
	b, err := a.rd.entry(name, max)
	if err != nil {
		return nil, fmt.Errorf("torchio: %w", err)
	}
	return b, nil
}

// Unpickle decodes the pickle record name (at most Limits.MaxPickleBytes)
// with the restricted unpickler. Its tensors are rebuilt as Read rebuilds
// them (the globals of the package documentation, over storage records
// storageDir+KEY, "data/" for data.pkl and "constants/" for TorchScript's
// constants.pkl; tensors of one storageDir sharing a storage share it);
// every other global is passed to find, which returns a stand-in (see
// pickle.Decoder.Find) or an error refusing it. find may be nil: then only
// the tensor globals are known.
func (a *Archive) Unpickle(name, storageDir string, find func(module, name string) (pickle.Value, error)) (pickle.Value, error) {
	if storageDir != "" && !strings.HasSuffix(storageDir, "/") {
		storageDir += "/"
	}
	data, err := a.rd.entry(name, a.rd.lim.MaxPickleBytes)
	if err != nil {
		return nil, fmt.Errorf("torchio: %w", err)
	}
	rd := a.rd
	rd.storageDir = storageDir
	defer func() { rd.storageDir = "data/" }()
	dec := pickle.Decoder{
		Find: func(module, gname string) (pickle.Value, error) {
			v, err := findGlobal(module, gname)
			if err == nil || find == nil {
				return v, err
			}
			return find(module, gname)
		},
		PersistentLoad: rd.persistentLoad,
		Limits:         rd.lim.Pickle,
	}
	v, err := dec.Unpickle(data)
	if err != nil {
		return nil, fmt.Errorf("torchio: %s: %w", name, err)
	}
	return v, nil
}
