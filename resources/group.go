package resources

import "context"

// Groupable is a resource whose changes can be made together with those
// of like resources, in one call (packages in one run of the package
// manager), as mgmt's autogrouping does. The engine groups only
// resources that are consecutive in manifest order, with no explicit edge
// among them, equal non-empty GroupKeys, and due to run together outside
// noop; each member still has its own Check before, its own verifying
// Check after, its own health checks and its own event.
type Groupable interface {
	Resource
	// GroupKey names what the resource's changes can be made together
	// with: resources of the same type that act the same way (the same
	// package manager, installing; or removing). "" never groups. It must
	// not block and must stay the same for the resource's life.
	GroupKey() string
	// ApplyGroup is Apply for every member at once: it converges each
	// member as the member's own Apply would with its Request, making what
	// can be made together in one go, and returns each member's Change
	// and error, in order, so that a failure is the failing member's
	// alone. The engine calls it on the first member, with members in
	// manifest order, the receiver first, none of them in noop; when it
	// returns, the engine checks each member again as after Apply.
	ApplyGroup(ctx context.Context, members []GroupMember) []GroupResult
}

// GroupMember is one resource of a group and the request its own Apply
// would get.
type GroupMember struct {
	Resource Groupable
	Request  Request
}

// GroupResult is what ApplyGroup did for one member.
type GroupResult struct {
	Change Change
	Err    error
}
