#!/bin/sh
# edml.h compiles cleanly on its own as C99 -pedantic, C11 and C++17.
set -e
t=$(mktemp -d)
printf '#include "edml.h"\nint main(void) { return edml_version() == 0; }\n' > "$t/h.c"
cp "$t/h.c" "$t/h.cpp"
${CC:-cc} -std=c99 -pedantic -Wall -Wextra -Werror -Iinclude -c "$t/h.c" -o "$t/a.o"
${CC:-cc} -std=c11 -pedantic -Wall -Wextra -Werror -Iinclude -c "$t/h.c" -o "$t/b.o"
${CXX:-c++} -std=c++17 -pedantic -Wall -Wextra -Werror -Iinclude -c "$t/h.cpp" -o "$t/c.o"
rm -rf "$t"
echo "edml.h: C99 -pedantic, C11, C++17 clean"
