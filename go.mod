module github.com/reactive-ccm/ccm

go 1.26

require (
	github.com/CloudyKit/jet/v6 v6.3.2
	github.com/expr-lang/expr v1.17.8
	go.yaml.in/yaml/v3 v3.0.6
	gonum.org/v1/gonum v0.17.0
)

require github.com/CloudyKit/fastprinter v0.0.0-20200109182630-33d98a066a53 // indirect
