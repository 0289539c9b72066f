include $(sort $(wildcard $(BR2_EXTERNAL_EDML_TEST_GL_PATH)/package/*/*.mk))
