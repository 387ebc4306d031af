module github.com/gofx/gofx

go 1.26.0

require (
	github.com/dominikbraun/graph v0.23.0
	github.com/google/go-cmp v0.7.0
	github.com/stretchr/testify v1.12.1
	golang.org/x/sys v0.50.0
	gonum.org/v1/gonum v0.17.0
)

require go.yaml.in/yaml/v3 v3.0.5 // indirect
