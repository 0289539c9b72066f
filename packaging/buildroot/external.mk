include $(sort $(wildcard $(BR2_EXTERNAL_EDML_PATH)/package/*/*.mk))
