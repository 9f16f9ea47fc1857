# Turns a text file into a C source defining `const unsigned char NAME[]` with its
# bytes (NUL-terminated): the bspram command's HTML pages are written from
# these, so a page needs no file of the installation at run time.
#   cmake -DIN=file -DOUT=file.c -DNAME=symbol -P embed.cmake
file(READ "${IN}" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
file(WRITE "${OUT}.tmp" "/* Generated from ${IN} by cmake/embed.cmake. */\nconst unsigned char ${NAME}[] = {\n${bytes}0x00};\n")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.tmp")
