module github.com/reactive-ccm/ccm

go 1.26

require (
	go.yaml.in/yaml/v3 v3.0.6
	gonum.org/v1/gonum v0.17.0
)

require github.com/kballard/go-shellquote v0.0.0-20180428030007-95032a82bc51
