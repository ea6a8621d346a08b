print("affix-bench")
