// Package txtar reads and writes the txtar archive format of
// golang.org/x/tools/txtar (not a dependency of gofx): a comment followed by
// files, each introduced by a line "-- NAME --".
//
//	This comment describes the archive.
//	-- input --
//	%x = placeholder "x"()
//	-- output --
//	...
//
// A marker line is "-- ", the name (trimmed, not empty), and " --", alone on
// its line. Everything before the first marker is the comment; a file's data
// runs to the next marker and ends with a newline (Parse adds one where the
// archive's last line has none). Parse never fails: any text is an archive.
package txtar

import (
	"bytes"
	"strings"
)

// An Archive is a comment and a sequence of files.
type Archive struct {
	Comment []byte
	Files   []File
}

// A File is one named file of an archive.
type File struct {
	Name string
	Data []byte
}

// Get returns the data of the first file called name.
func (a *Archive) Get(name string) ([]byte, bool) {
	for _, f := range a.Files {
		if f.Name == name {
			return f.Data, true
		}
	}
	return nil, false
}

// Parse reads an archive. It keeps the data of files as slices of data.
func Parse(data []byte) *Archive {
	a := &Archive{}
	var name string
	var start, cur int
	in := false
	flush := func(end int) {
		body := fixNL(data[start:end])
		if in {
			a.Files = append(a.Files, File{Name: name, Data: body})
		} else {
			a.Comment = body
		}
	}
	for cur < len(data) {
		end := bytes.IndexByte(data[cur:], '\n')
		next := len(data)
		line := data[cur:]
		if end >= 0 {
			line = data[cur : cur+end]
			next = cur + end + 1
		}
		if n, ok := marker(line); ok {
			flush(cur)
			name, in, start = n, true, next
		}
		cur = next
	}
	flush(len(data))
	return a
}

// marker reports whether line is a file marker and returns the file name.
func marker(line []byte) (string, bool) {
	s := strings.TrimSuffix(string(line), "\r")
	if !strings.HasPrefix(s, "-- ") || !strings.HasSuffix(s, " --") || len(s) < 7 {
		return "", false
	}
	name := strings.TrimSpace(s[3 : len(s)-3])
	return name, name != ""
}

// fixNL returns data ending in a newline (empty data stays empty).
func fixNL(data []byte) []byte {
	if len(data) == 0 || data[len(data)-1] == '\n' {
		return data
	}
	out := make([]byte, len(data)+1)
	copy(out, data)
	out[len(data)] = '\n'
	return out
}

// Format writes an archive; Parse(Format(a)) gives a back when every file's
// data and the comment end in a newline (or are empty) and no line of them
// is a marker.
func Format(a *Archive) []byte {
	var b bytes.Buffer
	b.Write(fixNL(a.Comment))
	for _, f := range a.Files {
		b.WriteString("-- " + f.Name + " --\n")
		b.Write(fixNL(f.Data))
	}
	return b.Bytes()
}
