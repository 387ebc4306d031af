package txtar

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     *Archive
	}{
		{"empty", "", &Archive{}},
		{"comment only", "hello\nworld", &Archive{Comment: []byte("hello\nworld\n")}},
		{"files", "c\n-- a --\none\n-- b.txt --\ntwo\nthree\n", &Archive{
			Comment: []byte("c\n"),
			Files:   []File{{"a", []byte("one\n")}, {"b.txt", []byte("two\nthree\n")}},
		}},
		{"empty file and no final newline", "-- a --\n-- b --\nx", &Archive{
			Files: []File{{"a", nil}, {"b", []byte("x\n")}},
		}},
		{"crlf marker, spaces in name", "-- rule a b --\r\nx\n", &Archive{
			Files: []File{{"rule a b", []byte("x\n")}},
		}},
		{"not markers", "-- --\n--a --\n-- a--\n", &Archive{Comment: []byte("-- --\n--a --\n-- a--\n")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Parse([]byte(tc.in))
			norm := func(a *Archive) *Archive {
				c := &Archive{Comment: a.Comment, Files: nil}
				if len(c.Comment) == 0 {
					c.Comment = nil
				}
				for _, f := range a.Files {
					if len(f.Data) == 0 {
						f.Data = nil
					}
					c.Files = append(c.Files, f)
				}
				return c
			}
			if d := cmp.Diff(norm(tc.want), norm(got)); d != "" {
				t.Errorf("(-want +got)\n%s", d)
			}
			again := Parse(Format(got))
			if d := cmp.Diff(norm(got), norm(again)); d != "" {
				t.Errorf("Format does not parse back (-first +second)\n%s", d)
			}
		})
	}
	a := Parse([]byte("-- x --\n1\n-- x --\n2\n"))
	if d, ok := a.Get("x"); !ok || string(d) != "1\n" {
		t.Errorf("Get(x) = %q, %v; want the first file", d, ok)
	}
	if _, ok := a.Get("y"); ok {
		t.Error("Get(y) found a file")
	}
}
