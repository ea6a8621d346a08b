print("affix-demo")
