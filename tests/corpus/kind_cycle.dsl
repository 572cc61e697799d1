kind egg : hen { }
kind hen : egg { }
