package archive

import (
	"hash/crc32"

	"github.com/gofx/gofx/torchio/pickle"
)

func crc(b []byte) uint32 { return crc32.ChecksumIEEE(b) }

func newDict() *pickle.Dict { return pickle.NewDict() }
