package archive

import "errors"

var (
	// ErrChecksumMismatch is returned when a downloaded archive does not
	// have the expected SHA-256 checksum; the download is discarded.
	ErrChecksumMismatch = errors.New("archive: checksum mismatch")
	// ErrDownload is returned when the server does not answer 200 OK.
	ErrDownload = errors.New("archive: download failed")
	// ErrStalled is returned when a download makes no progress for the
	// stall timeout.
	ErrStalled = errors.New("archive: download stalled")
	// ErrExtract is returned when tar or unzip fails.
	ErrExtract = errors.New("archive: extraction failed")
	// ErrTooLarge is returned when a download or an extraction would
	// exceed a bound on its size or its number of members (see
	// limits.go); nothing is left at the archive's path or in
	// extract_parent.
	ErrTooLarge = errors.New("archive: too large")
)
