package ledger

// TreeNeedSQL and TreeLeavesSQL are the tree's index arithmetic in SQL, for
// the tests that hold it to tlog's.
const (
	TreeNeedSQL   = treeNeedSQL
	TreeLeavesSQL = treeLeavesSQL
)
