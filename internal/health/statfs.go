package health

import "syscall"

// Statfs is the bytes free to an unprivileged user on dir's file system
// (what PostgreSQL, not running as root, can still write).
func Statfs(dir string) (uint64, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, err
	}
	return st.Bavail * uint64(st.Bsize), nil
}
