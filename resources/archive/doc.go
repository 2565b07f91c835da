// Package archive is the archive resource: archives downloaded over HTTP,
// verified and extracted with tar or unzip.
package archive
