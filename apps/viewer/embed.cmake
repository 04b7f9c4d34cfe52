# Writes a C++ header with the viewer's template files as byte arrays (no NUL at the end):
#   cmake -DOUT=viewer_assets.h -DHTML=viewer.html -DCSS=viewer.css -DJS=viewer.js -P embed.cmake
# The files stay readable in apps/viewer/; only the build tree holds the arrays.
set(text "// Generated from apps/viewer/ by embed.cmake: do not edit.\n#pragma once\n")
foreach(pair "kViewerHtml;${HTML}" "kViewerCss;${CSS}" "kViewerJs;${JS}")
  list(GET pair 0 name)
  list(GET pair 1 file)
  file(READ "${file}" hex HEX)
  string(LENGTH "${hex}" n)
  if(n EQUAL 0)
    message(FATAL_ERROR "${file} is empty")
  endif()
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  string(REGEX REPLACE "((0x..,){32})" "\\1\n" bytes "${bytes}")
  string(APPEND text "inline constexpr unsigned char ${name}[] = {\n${bytes}};\n")
endforeach()
file(WRITE "${OUT}.tmp" "${text}")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.tmp")
