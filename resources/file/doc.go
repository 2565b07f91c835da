// Package file is the file resource: regular files and directories with
// their content, owner, group and mode, managed by the posix provider.
package file
