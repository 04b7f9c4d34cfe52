# MuJoCo from Debian's libmujoco-dev as the target mbdae_mujoco (header mujoco/mujoco.h, library
# libmujoco). Debian's own CMake package names /usr/include/libqhull_r/ among its include folders,
# which libmujoco-dev does not install (it needs libqhull-dev, not a dependency of the package):
# its imported target then fails at generation, so the header and library are found directly.
if(NOT TARGET mbdae_mujoco)
  find_path(MBDAE_MUJOCO_INCLUDE_DIR mujoco/mujoco.h)
  find_library(MBDAE_MUJOCO_LIBRARY mujoco)
  if(MBDAE_MUJOCO_INCLUDE_DIR AND MBDAE_MUJOCO_LIBRARY)
    add_library(mbdae_mujoco INTERFACE IMPORTED GLOBAL)
    target_include_directories(mbdae_mujoco SYSTEM INTERFACE ${MBDAE_MUJOCO_INCLUDE_DIR})
    target_link_libraries(mbdae_mujoco INTERFACE ${MBDAE_MUJOCO_LIBRARY})
  endif()
endif()
if(TARGET mbdae_mujoco)
  set(MBDAE_MUJOCO_FOUND TRUE)
else()
  set(MBDAE_MUJOCO_FOUND FALSE)
endif()
