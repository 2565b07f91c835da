package resources_test

import (
	"fmt"

	"github.com/reactive-ccm/ccm/resources"
)

func ExampleJoinAnd() {
	fmt.Println(resources.JoinAnd([]string{"owner"}))
	fmt.Println(resources.JoinAnd([]string{"owner", "mode"}))
	fmt.Println(resources.JoinAnd([]string{"owner", "group", "mode"}))
	// Output:
	// owner
	// owner and mode
	// owner, group and mode
}
