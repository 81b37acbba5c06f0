"""What makes compiled rules fast without changing what they compute: memoisation of functions by
what they read (memo) and hoisting of loop-invariant parts (hoist); off in the reference build."""
