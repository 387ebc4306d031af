package torchio

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"unsafe"

	"github.com/gofx/gofx/tensor"
)

// chunk is the number of bytes encoded or decoded at a time.
const chunk = 1 << 16

// readStorage reads n elements of dtype dt, stored with byte order bo, from
// r into a one-dimensional tensor.
func readStorage(r io.Reader, dt tensor.DType, n int, bo binary.ByteOrder) (*tensor.Tensor, error) {
	switch dt {
	case tensor.Float32:
		return readElems(r, n, 4, func(b []byte) float32 { return math.Float32frombits(bo.Uint32(b)) })
	case tensor.Float64:
		return readElems(r, n, 8, func(b []byte) float64 { return math.Float64frombits(bo.Uint64(b)) })
	case tensor.Float16:
		return readElems(r, n, 2, func(b []byte) tensor.Half { return tensor.Half(bo.Uint16(b)) })
	case tensor.BFloat16:
		return readElems(r, n, 2, func(b []byte) tensor.BHalf { return tensor.BHalf(bo.Uint16(b)) })
	case tensor.Int64:
		return readElems(r, n, 8, func(b []byte) int64 { return int64(bo.Uint64(b)) })
	case tensor.Int32:
		return readElems(r, n, 4, func(b []byte) int32 { return int32(bo.Uint32(b)) })
	case tensor.Int16:
		return readElems(r, n, 2, func(b []byte) int16 { return int16(bo.Uint16(b)) })
	case tensor.Int8:
		return readElems(r, n, 1, func(b []byte) int8 { return int8(b[0]) })
	case tensor.Uint8:
		return readElems(r, n, 1, func(b []byte) uint8 { return b[0] })
	case tensor.Bool:
		return readElems(r, n, 1, func(b []byte) bool { return b[0] != 0 })
	}
	return nil, fmt.Errorf("unsupported dtype %v", dt)
}

func readElems[T tensor.Elem](r io.Reader, n, size int, dec func([]byte) T) (*tensor.Tensor, error) {
	out := make([]T, n)
	buf := make([]byte, min(chunk, n*size))
	for i := 0; i < n; {
		k := min(len(buf)/size, n-i)
		b := buf[:k*size]
		if _, err := io.ReadFull(r, b); err != nil {
			return nil, err
		}
		for j := range k {
			out[i+j] = dec(b[j*size : j*size+size])
		}
		i += k
	}
	return tensor.FromSlice(out)
}

// storageOf returns the whole storage under t as an identity key (nil for
// an empty storage, which is never shared) and its length.
func storageOf(t *tensor.Tensor) (key any, n int) {
	switch t.DType() {
	case tensor.Float32:
		return storageKey(tensor.Data[float32](t))
	case tensor.Float64:
		return storageKey(tensor.Data[float64](t))
	case tensor.Float16:
		return storageKey(tensor.Data[tensor.Half](t))
	case tensor.BFloat16:
		return storageKey(tensor.Data[tensor.BHalf](t))
	case tensor.Int64:
		return storageKey(tensor.Data[int64](t))
	case tensor.Int32:
		return storageKey(tensor.Data[int32](t))
	case tensor.Int16:
		return storageKey(tensor.Data[int16](t))
	case tensor.Int8:
		return storageKey(tensor.Data[int8](t))
	case tensor.Uint8:
		return storageKey(tensor.Data[uint8](t))
	case tensor.Bool:
		return storageKey(tensor.Data[bool](t))
	}
	return nil, 0
}

func storageKey[T tensor.Elem](d []T) (any, int) {
	if len(d) == 0 {
		return nil, 0
	}
	return &d[0], len(d)
}

// writeStorage writes t's whole storage in little-endian order.
func writeStorage(w io.Writer, t *tensor.Tensor) error {
	if b, ok := StorageBytes(t); ok {
		_, err := w.Write(b)
		return err
	}
	le := binary.LittleEndian
	switch t.DType() {
	case tensor.Float32:
		return writeElems(w, tensor.Data[float32](t), 4, func(b []byte, v float32) { le.PutUint32(b, math.Float32bits(v)) })
	case tensor.Float64:
		return writeElems(w, tensor.Data[float64](t), 8, func(b []byte, v float64) { le.PutUint64(b, math.Float64bits(v)) })
	case tensor.Float16:
		return writeElems(w, tensor.Data[tensor.Half](t), 2, func(b []byte, v tensor.Half) { le.PutUint16(b, uint16(v)) })
	case tensor.BFloat16:
		return writeElems(w, tensor.Data[tensor.BHalf](t), 2, func(b []byte, v tensor.BHalf) { le.PutUint16(b, uint16(v)) })
	case tensor.Int64:
		return writeElems(w, tensor.Data[int64](t), 8, func(b []byte, v int64) { le.PutUint64(b, uint64(v)) })
	case tensor.Int32:
		return writeElems(w, tensor.Data[int32](t), 4, func(b []byte, v int32) { le.PutUint32(b, uint32(v)) })
	case tensor.Int16:
		return writeElems(w, tensor.Data[int16](t), 2, func(b []byte, v int16) { le.PutUint16(b, uint16(v)) })
	case tensor.Int8:
		return writeElems(w, tensor.Data[int8](t), 1, func(b []byte, v int8) { b[0] = byte(v) })
	case tensor.Uint8:
		return writeElems(w, tensor.Data[uint8](t), 1, func(b []byte, v uint8) { b[0] = v })
	case tensor.Bool:
		return writeElems(w, tensor.Data[bool](t), 1, func(b []byte, v bool) {
			b[0] = 0
			if v {
				b[0] = 1
			}
		})
	}
	return fmt.Errorf("unsupported dtype %v", t.DType())
}

func writeElems[T tensor.Elem](w io.Writer, d []T, size int, enc func([]byte, T)) error {
	buf := make([]byte, min(chunk, len(d)*size))
	for i := 0; i < len(d); {
		k := min(len(buf)/size, len(d)-i)
		b := buf[:k*size]
		for j := range k {
			enc(b[j*size:j*size+size], d[i+j])
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
		i += k
	}
	return nil
}

// littleEndianHost reports whether this machine stores numbers
// little-endian, as storage records do.
var littleEndianHost = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// StorageBytes returns t's whole storage as the bytes of its storage
// record (little-endian elements, a bool as one byte 0 or 1), sharing t's
// memory: nothing is copied. ok is false on a big-endian host or for a
// meta tensor; WriteStorage encodes the record there. The bytes must not
// be modified.
func StorageBytes(t *tensor.Tensor) (b []byte, ok bool) {
	if !littleEndianHost || t.IsMeta() {
		return nil, false
	}
	switch t.DType() {
	case tensor.Float32:
		return asBytes(tensor.Data[float32](t)), true
	case tensor.Float64:
		return asBytes(tensor.Data[float64](t)), true
	case tensor.Float16:
		return asBytes(tensor.Data[tensor.Half](t)), true
	case tensor.BFloat16:
		return asBytes(tensor.Data[tensor.BHalf](t)), true
	case tensor.Int64:
		return asBytes(tensor.Data[int64](t)), true
	case tensor.Int32:
		return asBytes(tensor.Data[int32](t)), true
	case tensor.Int16:
		return asBytes(tensor.Data[int16](t)), true
	case tensor.Int8:
		return asBytes(tensor.Data[int8](t)), true
	case tensor.Uint8:
		return asBytes(tensor.Data[uint8](t)), true
	case tensor.Bool:
		// A Go bool is one byte holding 0 or 1, as PyTorch's.
		return asBytes(tensor.Data[bool](t)), true
	}
	return nil, false
}

// asBytes views d's memory as bytes.
func asBytes[T tensor.Elem](d []T) []byte {
	if len(d) == 0 {
		return []byte{}
	}
	var z T
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(d))), len(d)*int(unsafe.Sizeof(z)))
}
