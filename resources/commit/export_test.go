package commit

// SetDirty makes g measure the dirty page cache with dirty.
func (g *Group) SetDirty(dirty func() (int64, bool)) { g.dirty = dirty }

// DirtyBytes is the measure of the dirty page cache groups use.
var DirtyBytes = dirtyBytes

// ForeignPerFile and PageSize are how littleDirty counts.
const ForeignPerFile, PageSize = foreignPerFile, pageSize
