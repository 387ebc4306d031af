package archive

import (
	"archive/zip"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"strconv"
	"strings"

	"github.com/gofx/gofx/pt2/schema"
	"github.com/gofx/gofx/torchio"
	"github.com/gofx/gofx/torchio/pickle"
)

// The records of PyTorch ≤ 2.7's zip.
const (
	zipProgram       = "serialized_exported_program.json"
	zipStateDict     = "serialized_state_dict.pt"
	zipConstants     = "serialized_constants.pt"
	zipExampleInputs = "serialized_example_inputs.pt"
	zipVersion       = "version"
	zipExtraDir      = "extra_files/"
	zipModelName     = "model"
)

func (rd *reader) readZip() (*Archive, error) {
	a := &Archive{Layout: LayoutZip}
	vb, err := rd.record(zipVersion)
	if err != nil {
		return nil, err
	}
	a.Version = string(vb)
	major, _, ok := strings.Cut(a.Version, ".")
	if n, err := strconv.Atoi(major); !ok || err != nil || n != schema.SchemaVersionMajor {
		return nil, fmt.Errorf("record version: schema version %q is not %d.x", short(a.Version), schema.SchemaVersionMajor)
	}
	m := &Model{Name: zipModelName}
	pb, err := rd.record(zipProgram)
	if err != nil {
		return nil, err
	}
	if m.Program, err = schema.Decode(pb); err != nil {
		return nil, fmt.Errorf("record %s: %w", zipProgram, err)
	}
	if rd.has(zipStateDict) {
		if m.Weights, err = rd.tensorDict(zipStateDict); err != nil {
			return nil, err
		}
	}
	if rd.has(zipConstants) {
		cs, err := rd.tensorDict(zipConstants)
		if err != nil {
			return nil, err
		}
		for _, c := range cs {
			m.Constants = append(m.Constants, Constant{Name: c.Name, Tensor: c.Tensor})
		}
	}
	if rd.has(zipExampleInputs) {
		if m.ExampleInputs, err = rd.value(zipExampleInputs); err != nil {
			return nil, err
		}
	}
	if err := m.checkNames(); err != nil {
		return nil, err
	}
	a.Models = []*Model{m}
	for _, name := range rd.names {
		if extra, ok := strings.CutPrefix(name, zipExtraDir); ok {
			b, err := rd.record(name)
			if err != nil {
				return nil, err
			}
			if a.ExtraFiles == nil {
				a.ExtraFiles = map[string][]byte{}
			}
			a.ExtraFiles[extra] = b
		}
	}
	return a, nil
}

// writeZip writes PyTorch ≤ 2.7's zip, which torch.export.load of PyTorch
// 2.6 reads: the records Python's zipfile writes (stored, no timestamps
// here), at the top whatever Root says, the state dict's parameters as
// nn.Parameters.
func (a *Archive) writeZip(w io.Writer) error {
	if len(a.Models) != 1 {
		return fmt.Errorf("the zip layout holds one model, the archive has %d", len(a.Models))
	}
	m := a.Models[0]
	if m.Program == nil {
		return fmt.Errorf("model %q has no program", m.Name)
	}
	prog, err := schema.Encode(m.Program)
	if err != nil {
		return fmt.Errorf("model %q: %w", m.Name, err)
	}
	sd := pickle.NewDict()
	for _, wt := range m.Weights {
		if wt.Tensor == nil {
			return fmt.Errorf("model %q: weight %q has no tensor", m.Name, wt.Name)
		}
		var v any = wt.Tensor
		if wt.IsParam {
			v = &torchio.Parameter{Data: wt.Tensor, RequiresGrad: wt.RequiresGrad}
		}
		if err := sd.Set(wt.Name, v); err != nil {
			return fmt.Errorf("model %q: weight %q: %w", m.Name, wt.Name, err)
		}
	}
	consts := pickle.NewDict()
	for _, c := range m.Constants {
		if c.Tensor == nil {
			return fmt.Errorf("model %q: constant %q is a custom object (%s), which the zip layout cannot hold: only PyTorch can pickle it", m.Name, c.Name, c.ObjectKind)
		}
		if err := consts.Set(c.Name, c.Tensor); err != nil {
			return fmt.Errorf("model %q: constant %q: %w", m.Name, c.Name, err)
		}
	}
	// The nested torch.save files stream into their records (written
	// twice: once for their size and CRC, once into the zip), so that no
	// copy of the weights is built in memory.
	value := func(what string, v pickle.Value) func(io.Writer) error {
		return func(w io.Writer) error {
			if v == nil {
				return nil
			}
			if err := torchio.WriteValue(w, v); err != nil {
				return fmt.Errorf("model %q: %s: %w", m.Name, what, err)
			}
			return nil
		}
	}
	v := m.Program.SchemaVersion
	zw := newRecordWriter(w, "", false) // PyTorch reads these records only at the top
	zw.add(zipProgram, prog)
	zw.stream(zipStateDict, value("state dict", sd))
	zw.stream(zipConstants, value("constants", consts))
	zw.stream(zipExampleInputs, value("example inputs", m.ExampleInputs))
	zw.add(zipVersion, []byte(fmt.Sprintf("%d.%d", v.Major, v.Minor)))
	for _, name := range sortedKeys(a.ExtraFiles) {
		zw.add(zipExtraDir+name, a.ExtraFiles[name])
	}
	return zw.close()
}

// recordWriter writes stored zip records under a root folder, with no
// timestamps, optionally with their data 64-byte aligned as PyTorch's
// archive writer does.
type recordWriter struct {
	cw    *countWriter
	zw    *zip.Writer
	root  string
	align bool
	err   error
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

func newRecordWriter(w io.Writer, root string, align bool) *recordWriter {
	cw := &countWriter{w: w}
	return &recordWriter{cw: cw, zw: zip.NewWriter(cw), root: root, align: align}
}

const alignment = 64

func (rw *recordWriter) add(name string, data []byte) {
	if rw.err != nil {
		return
	}
	if rw.root != "" {
		name = rw.root + "/" + name
	}
	if err := rw.zw.Flush(); err != nil {
		rw.err = err
		return
	}
	var extra []byte
	if rw.align {
		const localHeaderLen, padHeaderLen = 30, 4
		start := rw.cw.n + localHeaderLen + int64(len(name)) + padHeaderLen
		pad := (alignment - start%alignment) % alignment
		extra = make([]byte, padHeaderLen+pad)
		extra[0], extra[1] = 0x46, 0x42 // "FB", PyTorch's padding tag
		extra[2], extra[3] = byte(pad), byte(pad>>8)
		for i := padHeaderLen; i < len(extra); i++ {
			extra[i] = 'Z'
		}
	}
	fw, err := rw.zw.CreateRaw(&zip.FileHeader{
		Name: name, Method: zip.Store, Extra: extra, CRC32: crc32.ChecksumIEEE(data),
		CompressedSize64: uint64(len(data)), UncompressedSize64: uint64(len(data)),
	})
	if err != nil {
		rw.err = fmt.Errorf("record %s: %w", name, err)
		return
	}
	if _, err := fw.Write(data); err != nil {
		rw.err = fmt.Errorf("record %s: %w", name, err)
	}
}

// stream adds the record that write writes, calling it twice: once for
// the record's size and CRC (a stored record's header holds them), once
// for its data. write must write the same bytes both times.
func (rw *recordWriter) stream(name string, write func(io.Writer) error) {
	if rw.err != nil {
		return
	}
	sum := &checkWriter{crc: crc32.NewIEEE()}
	if err := write(sum); err != nil {
		rw.err = err
		return
	}
	full := name
	if rw.root != "" {
		full = rw.root + "/" + name
	}
	if err := rw.zw.Flush(); err != nil {
		rw.err = err
		return
	}
	fw, err := rw.zw.CreateRaw(&zip.FileHeader{
		Name: full, Method: zip.Store, CRC32: sum.crc.Sum32(),
		CompressedSize64: uint64(sum.n), UncompressedSize64: uint64(sum.n),
	})
	if err != nil {
		rw.err = fmt.Errorf("record %s: %w", full, err)
		return
	}
	again := &checkWriter{w: fw, crc: crc32.NewIEEE()}
	if err := write(again); err != nil {
		rw.err = err
		return
	}
	if again.n != sum.n || again.crc.Sum32() != sum.crc.Sum32() {
		rw.err = fmt.Errorf("record %s: its writer gave %d bytes, then %d different ones", full, sum.n, again.n)
	}
}

// checkWriter counts and checksums what it writes on to w (nil: nowhere).
type checkWriter struct {
	w   io.Writer
	crc hash.Hash32
	n   int64
}

func (c *checkWriter) Write(p []byte) (int, error) {
	if c.w != nil {
		n, err := c.w.Write(p)
		c.crc.Write(p[:n])
		c.n += int64(n)
		return n, err
	}
	c.crc.Write(p)
	c.n += int64(len(p))
	return len(p), nil
}

func (rw *recordWriter) close() error {
	if rw.err != nil {
		return rw.err
	}
	return rw.zw.Close()
}

func short(s string) string {
	if len(s) > 64 {
		return s[:64] + "..."
	}
	return s
}
